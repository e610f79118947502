import FileSystem
import FoundationEssentials
import Glibc
import GStreamer

/// Finds cameras and resolves the names people give them on the command line.
public enum DeviceDiscovery {
    /// The cameras attached now (V4L2, libcamera, PipeWire), then the built-in test camera.
    public static func devices() throws(CaptureError) -> [CaptureDevice] {
        try systemDevices() + [.testCamera()]
    }

    /// The cameras the system reports, without the test camera.
    public static func systemDevices() throws(CaptureError) -> [CaptureDevice] {
        let monitored: [CaptureDevice]
        if let watch = CameraWatch.anyRunning {
            monitored = watch.devices()
        } else {
            do {
                monitored = try makeMonitor().devices()
                    .filter { $0.caps.map { !VideoCapability.list(from: $0).isEmpty } ?? false }
                    .map(CaptureDevice.init)
            } catch {
                throw CaptureError(.pipeline, "cameras could not be listed: \(error.message)")
            }
        }
        // A camera PipeWire shares is read through PipeWire (other programs may use it too); the
        // same camera's V4L2 node is the fallback where PipeWire does not run.
        let shared = PipeWireCameras.list()
        let sharedPaths = Set(shared.compactMap { device -> String? in
            if case .system(let path, _, _) = device.kind { return path }
            return nil
        })
        return shared + monitored.filter { device in
            if case .system(let path?, _, _) = device.kind { return !sharedPaths.contains(path) }
            return true
        }
    }

    /// A monitor of video sources (or `classes`), without GStreamer's PipeWire provider (see ``PipeWireDump``).
    static func makeMonitor(classes: [String] = ["Video/Source"]) throws(GStreamerError) -> DeviceMonitor {
        _ = withoutPipeWireProvider
        return try DeviceMonitor(classes: classes)
    }

    private static let withoutPipeWireProvider: Void = GStreamerRuntime.disableDeviceProvider(named: "pipewiredeviceprovider")

    /// The camera a person named: `test`, `test:PATTERN`, `file:PATH`, a device path such as
    /// `/dev/video0`, `front` or `back` (the first camera reporting that position), or part of a
    /// camera's name. `nil` means the first real camera.
    public static func device(named name: String?) throws(CaptureError) -> CaptureDevice {
        guard let name, !name.isEmpty else {
            guard let first = try systemDevices().first else {
                throw CaptureError(.noCamera, "no camera is attached", remedy: .useTestCamera)
            }
            return first
        }
        if name == "test" { return .testCamera() }
        if name.hasPrefix("test:") { return try testCamera(pattern: String(name.dropFirst(5))) }  // an empty pattern is refused there
        if name.hasPrefix("file:") { return try file(String(name.dropFirst(5))) }
        let cameras = try systemDevices()
        if let position = CaptureDevice.Position(rawValue: name), position == .front || position == .back {
            return try camera(at: position, among: cameras)
        }
        if name.hasPrefix("/") {
            if let camera = cameras.first(where: { $0.id == name }) { return camera }
            return try deviceNode(name)
        }
        let matches = cameras.filter { $0.name.lowercased().contains(name.lowercased()) }
        if let match = matches.first { return match }
        let known = cameras.isEmpty ? "no camera is attached" : "the cameras are " + cameras.map(\.description).joined(separator: ", ")
        throw CaptureError(.deviceNotFound,
            "no camera is called \"\(name)\"; \(known)", remedy: .useTestCamera)
    }

    /// The first camera reporting `position`. PipeWire and libcamera report where a camera sits;
    /// V4L2 reports nothing, so a webcam is never `front` or `back`.
    private static func camera(at position: CaptureDevice.Position, among cameras: [CaptureDevice]) throws(CaptureError) -> CaptureDevice {
        if let camera = cameras.first(where: { $0.position == position }) { return camera }
        let known = cameras.isEmpty ? "no camera is attached"
            : "the cameras are " + cameras.map { "\($0.description), \($0.position == .unspecified ? "no position" : $0.position.rawValue)" }
                .joined(separator: "; ")
        throw CaptureError(.deviceNotFound,
            "no camera reports its position as \(position.rawValue) (PipeWire and libcamera cameras report one, V4L2 cameras do not); \(known)",
            remedy: .listCameras)
    }

    /// The camera as it is attached now, or `nil` while it is not: the test camera always, a file
    /// while it exists, a system camera while the device monitor lists it (with its current
    /// source: a PipeWire camera that comes back has a new object serial) or its device node exists.
    /// With `acceptingOthers`, the first camera attached when this one is not.
    public static func current(_ device: CaptureDevice, acceptingOthers: Bool = false) -> CaptureDevice? {
        if let attached = attached(device) { return attached }
        return acceptingOthers ? (try? systemDevices())?.first : nil
    }

    private static func attached(_ device: CaptureDevice) -> CaptureDevice? {
        switch device.kind {
        case .testPattern, .custom: return device
        case .file(let path): return FileManager.default.fileExists(atPath: path) ? device : nil
        case .system(let path, _, _):
            if let listed = ((try? systemDevices()) ?? []).first(where: { $0.id == device.id }) { return listed }
            if let path, path.hasPrefix("/"), FileManager.default.fileExists(atPath: path) { return device }
            return nil
        }
    }

    private static func testCamera(pattern: String) throws(CaptureError) -> CaptureDevice {
        do {
            try Element(factory: "videotestsrc").setProperty("pattern", .enumeration(pattern))
        } catch {
            throw CaptureError(.deviceNotFound,
                "the test camera has no pattern \"\(pattern)\"; try smpte, ball, snow, colors or checkers-8 (gst-inspect-1.0 videotestsrc lists all)")
        }
        return .testCamera(pattern: pattern)
    }

    private static func file(_ path: String) throws(CaptureError) -> CaptureDevice {
        guard !path.isEmpty else {
            throw CaptureError(.deviceNotFound, "file: names no file; give the path of an image or video file after it, such as file:photo.jpg")
        }
        do {
            // Never a FIFO or a device: GStreamer would wait on it for ever.
            try RegularFile.check(path)
        } catch {
            switch error.kind {
            case .missing: throw CaptureError(.deviceNotFound, "\(path) does not exist; give the path of an image or video file after file:")
            case .permissionDenied: throw CaptureError(.permissionDenied, "\(path) cannot be read; check its permissions")
            default: throw CaptureError(.unreadableFile, "\(path) cannot be used as a camera: \(error.reason); give an image or video file after file:")
            }
        }
        guard (try? MediaInfo(path: path))?.videoSize != nil else {
            throw CaptureError(.unreadableFile, "\(path) is not a picture or video GStreamer can read; give an image (JPEG, PNG, …) or a video file after file:")
        }
        return .file(path)
    }

    /// A device node the monitor did not list: say why it cannot be used, or use it as V4L2.
    private static func deviceNode(_ path: String) throws(CaptureError) -> CaptureDevice {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw CaptureError(.deviceNotFound, "there is no camera at \(path)", remedy: .listCameras)
        }
        guard access(path, R_OK | W_OK) == 0 else {
            let group = groupName(status.st_gid)
            throw CaptureError(.permissionDenied,
                "you may not open \(path); add yourself to the \(group) group (sudo usermod -aG \(group) $USER) and log in again")
        }
        return CaptureDevice(id: path, name: path, kind: .system(path: path, api: "v4l2", source: "v4l2src device=\(Element.launchQuoted(path))"), position: .unspecified,
                             capabilities: [])
    }

    private static func groupName(_ id: gid_t) -> String {
        guard let entry = getgrgid(id), let name = entry.pointee.gr_name else { return "video" }
        return String(cString: name)
    }
}
