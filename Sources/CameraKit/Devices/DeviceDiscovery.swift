import Blocking
import FileSystem
import FoundationEssentials
import Glibc
import GPhoto2
import GStreamer

/// Finds cameras and resolves the names people give them on the command line.
public enum DeviceDiscovery {
    /// Where cameras and microphones are listed and looked up from `async` code: listing them
    /// runs programs (pw-dump), so never on Swift's shared threads or inside an actor.
    public static let lane = BlockingLane(label: "discovery")

    /// The cameras attached now (V4L2, libcamera, PipeWire), the DSLR and mirrorless cameras
    /// libgphoto2 finds, then the built-in test camera.
    public static func devices() throws(CaptureError) -> [CaptureDevice] {
        try systemDevices() + gphoto2Cameras() + [.testCamera()]
    }

    /// The DSLR and mirrorless cameras connected now; none where libgphoto2 is not installed.
    public static func gphoto2Cameras() -> [CaptureDevice] {
        GPhotoCameras.connected().map { CaptureDevice.gphoto2(model: $0.model, port: $0.port) }
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

    /// The camera a person named: `test`, `test:PATTERN`, `file:PATH`, `gphoto2:PORT` or
    /// `gphoto2:MODEL` (a DSLR or mirrorless camera), a device path such as `/dev/video0`, `front`
    /// or `back` (the first camera reporting that position), or part of a camera's name. `nil`
    /// means the first real camera (a DSLR only when no other camera is attached).
    public static func device(named name: String?) throws(CaptureError) -> CaptureDevice {
        guard let name, !name.isEmpty else {
            guard let first = try systemDevices().first ?? gphoto2Cameras().first else {
                throw CaptureError(.noCamera, "no camera is attached", remedy: .useTestCamera)
            }
            return first
        }
        if name == "test" { return .testCamera() }
        if name.hasPrefix("gphoto2:") { return try gphoto2Camera(String(name.dropFirst("gphoto2:".count))) }
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
    /// while it exists, a DSLR while `tethered` finds it (at any port: plugged in again, it may
    /// be at another), a system camera while the device monitor lists it (with its current
    /// source: a PipeWire camera that comes back has a new object serial) or its device node exists.
    /// With `acceptingOthers`, the first camera attached when this one is not. The system's
    /// cameras are listed on ``lane``.
    public static func current(_ device: CaptureDevice, acceptingOthers: Bool = false,
                               tethered: any TetheredCameraDriver = GPhotoDriver()) async -> CaptureDevice? {
        if case .gphoto2(let model, _) = device.kind {
            let cameras = await tethered.connected().map { CaptureDevice.gphoto2(model: $0.model, port: $0.port) }
            if let found = cameras.first(where: { $0.id == device.id }) ?? cameras.first(where: { $0.name == model }) { return found }
        } else if let attached = await lane.run({ attached(device) }) {
            return attached
        }
        return acceptingOthers ? await lane.run { (try? systemDevices())?.first } : nil
    }

    private static func attached(_ device: CaptureDevice) -> CaptureDevice? {
        switch device.kind {
        case .testPattern, .custom: return device
        case .gphoto2: return nil
        case .file(let path): return FileManager.default.fileExists(atPath: path) ? device : nil
        case .system(let path, _, _):
            if let listed = ((try? systemDevices()) ?? []).first(where: { $0.id == device.id }) { return listed }
            if let path, path.hasPrefix("/"), FileManager.default.fileExists(atPath: path) { return device }
            return nil
        }
    }

    /// The DSLR or mirrorless camera at port `name` (`usb:001,004`), or whose model is `name`
    /// (or contains it).
    private static func gphoto2Camera(_ name: String) throws(CaptureError) -> CaptureDevice {
        let cameras: [GPhotoCameraInfo]
        do {
            cameras = try GPhotoCameras.detected()
        } catch {
            throw CaptureError(error)
        }
        let lowered = name.lowercased()
        guard let found = cameras.first(where: { $0.port == name }) ?? cameras.first(where: { $0.model.lowercased() == lowered })
                ?? cameras.first(where: { !lowered.isEmpty && $0.model.lowercased().contains(lowered) }) else {
            let known = cameras.isEmpty ? "libgphoto2 finds no camera connected (is it on, and not held by another program?)"
                : "the DSLR and mirrorless cameras are " + cameras.map { "gphoto2:\($0.port) (\($0.model))" }.joined(separator: ", ")
            throw CaptureError(.deviceNotFound, "no DSLR or mirrorless camera is called \"\(name)\"; \(known)", remedy: .listCameras)
        }
        return .gphoto2(model: found.model, port: found.port)
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
