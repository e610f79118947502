import Dispatch
import Glibc

/// A camera that fires its own shutter and hands over the files it writes, with a live view and
/// settings of its own: what a session needs of a DSLR or mirrorless camera. ``GPhotoCamera`` is
/// the one libgphoto2 drives; a program may give its own through a ``TetheredCameraDriver``.
public protocol TetheredCamera: Sendable {
    /// The camera's model, as its driver names it.
    var model: String { get }
    /// Where it is connected (`usb:001,004`).
    var port: String { get }
    /// Fires the shutter; returns the file the camera wrote (one of a RAW+JPEG pair) and when it fired.
    func capture() async throws(GPhotoError) -> GPhotoShot
    /// The files the camera tells of from now: its events read until it has been quiet for
    /// `quiet` milliseconds or says its capture is complete, for at most `limit` milliseconds.
    func newFiles(quietFor quiet: Int32, atMost limit: Int32) async throws(GPhotoError) -> [GPhotoFile]
    /// A file's bytes as the camera wrote them, refused beyond `limit`.
    func download(_ file: GPhotoFile, limit: Int) async throws(GPhotoError) -> [UInt8]
    /// Deletes a file from the camera's card.
    func delete(_ file: GPhotoFile) async throws(GPhotoError)
    /// One live view picture (a JPEG); `GP_ERROR_NOT_SUPPORTED` for a camera without live view.
    func preview() async throws(GPhotoError) -> [UInt8]
    /// The camera's settings with their values and choices.
    func settings() async throws(GPhotoError) -> [GPhotoSetting]
    /// Sets one setting to one of its choices; returns it as the camera then says it.
    func set(_ name: String, to value: String) async throws(GPhotoError) -> GPhotoSetting
    /// Lets the camera go; later calls are refused.
    func close() async
}

/// A shot a camera took: the file it names, and when its shutter was fired (seconds since 1970 on
/// the system's real-time clock, read just before the camera was told to fire).
public struct GPhotoShot: Sendable, Equatable {
    public let file: GPhotoFile
    public let firedAt: Double

    public init(file: GPhotoFile, firedAt: Double) {
        (self.file, self.firedAt) = (file, firedAt)
    }

    /// Now, as ``firedAt`` says it.
    public static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}

/// Where tethered cameras are found and opened: libgphoto2 (``GPhotoDriver``), or a program's own.
public protocol TetheredCameraDriver: Sendable {
    /// The cameras connected now; none when the driver cannot look.
    func connected() async -> [GPhotoCameraInfo]
    /// Opens the camera `model` at `port`.
    func open(model: String, port: String) async throws(GPhotoError) -> any TetheredCamera
}

/// The DSLR and mirrorless cameras libgphoto2 drives. Looking for cameras blocks on USB, so it
/// runs on a queue of its own, never on Swift's shared threads.
public struct GPhotoDriver: TetheredCameraDriver {
    private static let looking = DispatchQueue(label: "camctl.gphoto2.detect")

    public init() {}

    public func connected() async -> [GPhotoCameraInfo] {
        await withCheckedContinuation { continuation in
            Self.looking.async { continuation.resume(returning: GPhotoCameras.connected()) }
        }
    }

    public func open(model: String, port: String) async throws(GPhotoError) -> any TetheredCamera {
        try await GPhotoCamera.open(model: model, port: port)
    }
}
