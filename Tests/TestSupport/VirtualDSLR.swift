import Foundation

/// libgphoto2's virtual camera (a "Nikon DSC D750" at `usb:001,001`), from the PyPI package
/// `scripts/setup --tests` installs into /opt/camctl-gphoto2: the environment a camctl child needs
/// to find it, and the folder of JPEGs whose files it "takes".
public struct VirtualDSLR {
    /// The libgphoto2 build that carries the virtual camera, with its port and camera drivers.
    public static let library = "/opt/camctl-gphoto2/lib/python3.11/site-packages/gphoto2/libgphoto2"
    public static let port = "usb:001,001"
    public static let model = "Nikon DSC D750"

    public static var isAvailable: Bool { FileManager.default.fileExists(atPath: library + "/vusb/vusb.so") }

    /// The camera's card: the pictures a capture gives back.
    public let card: TemporaryFolder

    public init() throws {
        card = try TemporaryFolder()
    }

    /// What a camctl child needs to see the camera: the virtual camera's libgphoto2 first, its
    /// virtual USB port driver, its camera drivers, and the card.
    public var environment: [String: String] {
        ["LD_LIBRARY_PATH": Self.library, "IOLIBS": Self.library + "/vusb", "CAMLIBS": Self.library + "/camlibs", "VCAMERADIR": card.url.path]
    }
}
