import CGPhoto2
import Foundation
import GPhoto2
import Synchronization

/// A DSLR of a test's own, through the session's seam for tethered cameras: live view pictures
/// the test gives (real JPEGs, as a camera sends them), a card whose files its shutter "takes" in
/// turn (a RAW+JPEG pair told as one file, then the other), a shutter that can hang, and a cable
/// the test pulls out and plugs back. It answers one call at a time, as a camera does (a hanging
/// shot holds the others).
public final class ScriptedDSLR: TetheredCameraDriver, TetheredCamera, Sendable {
    public let model = "Scripted DSLR"
    public let port = "usb:009,009"

    private struct State {
        var plugged = true
        var liveView: [[UInt8]] = []
        var previews = 0
        /// Each shot's files: the first is the one the capture names, the rest come as events.
        var shots: [[(file: GPhotoFile, bytes: [UInt8])]] = []
        var card: [String: [UInt8]] = [:]
        var toldLater: [GPhotoFile] = []
        var shutterHangs = false
        var heldShot: CheckedContinuation<Void, Never>?
    }
    private let state = Mutex(State())
    /// Calls, one at a time.
    private let turns = Turns()

    /// A JPEG as a camera writes it, by GStreamer's encoder: a plain `color` (0xRRGGBB) at
    /// `width`x`height`, its colour kept at half width (4:2:2, as cameras' live view pictures are).
    public static func jpeg(color: UInt32, width: Int, height: Int) async throws -> [UInt8] {
        let folder = try TemporaryFolder()
        let path = folder.path("picture.jpg")
        let made = try await ChildProcess.run("gst-launch-1.0", [
            "-q", "videotestsrc", "num-buffers=1", "pattern=solid-color", "foreground-color=\(0xff00_0000 | color)", "!",
            "video/x-raw,format=Y42B,width=\(width),height=\(height)", "!", "jpegenc", "!", "filesink", "location=\(path)",
        ])
        guard made.status == 0 else { throw ChildProcess.Failure(message: "gst-launch-1.0 made no JPEG: \(made.standardError)") }
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// A camera whose live view repeats `liveView` (none: it has no live view).
    public init(liveView: [[UInt8]] = []) {
        state.withLock { $0.liveView = liveView }
    }

    /// Puts a shot on the queue: the files the next firing of the shutter writes.
    public func willShoot(_ files: [(name: String, bytes: [UInt8])]) {
        state.withLock { $0.shots.append(files.map { (GPhotoFile(folder: "/DCIM/100SCRPT", name: $0.name), $0.bytes) }) }
    }

    /// Pulls the cable out (`false`) or plugs it back.
    public func plug(_ plugged: Bool) { state.withLock { $0.plugged = plugged } }

    /// Makes the next shot hang until ``releaseShutter()``.
    public func hangShutter() { state.withLock { $0.shutterHangs = true } }

    /// Lets a hanging shot finish.
    public func releaseShutter() {
        state.withLock { state in
            defer { state.heldShot = nil }
            state.shutterHangs = false
            return state.heldShot
        }?.resume()
    }

    /// How many live view pictures were asked for.
    public var previews: Int { state.withLock { $0.previews } }

    /// The names of the files on the card.
    public var cardFiles: Set<String> { Set(state.withLock { $0.card.keys }) }

    public func connected() async -> [GPhotoCameraInfo] {
        state.withLock { $0.plugged } ? [GPhotoCameraInfo(model: model, port: port, hasLiveView: true)] : []
    }

    /// Runs a call of the camera's once the calls before it are done.
    private func one<T: Sendable>(_ call: @escaping @Sendable () async throws(GPhotoError) -> T) async throws(GPhotoError) -> T {
        let result = try? await turns.run { () async -> Result<T, GPhotoError> in
            do throws(GPhotoError) {
                return .success(try await call())
            } catch {
                return .failure(error)
            }
        }
        guard let result else { throw GPhotoError(code: GP_ERROR, "the scripted camera's turn was lost") }
        return try result.get()
    }

    public func open(model: String, port: String) async throws(GPhotoError) -> any TetheredCamera {
        try checkPlugged()
        return self
    }

    public func capture() async throws(GPhotoError) -> GPhotoShot {
        try await one { [self] () throws(GPhotoError) -> GPhotoShot in
            try checkPlugged()
            let firedAt = GPhotoShot.now()
            await withCheckedContinuation { (held: CheckedContinuation<Void, Never>) in
                let hangs = state.withLock { state in
                    if state.shutterHangs { state.heldShot = held }
                    return state.shutterHangs
                }
                if !hangs { held.resume() }
            }
            return try state.withLock { state throws(GPhotoError) -> GPhotoShot in
                guard !state.shots.isEmpty else { throw GPhotoError(code: GP_ERROR, "the scripted camera has no shot left") }
                let files = state.shots.removeFirst()
                for (file, bytes) in files { state.card[file.name] = bytes }
                state.toldLater += files.dropFirst().map(\.file)
                return GPhotoShot(file: files[0].file, firedAt: firedAt)
            }
        }
    }

    public func newFiles(quietFor quiet: Int32, atMost limit: Int32) async throws(GPhotoError) -> [GPhotoFile] {
        try await one { [self] () throws(GPhotoError) -> [GPhotoFile] in
            try checkPlugged()
            let told = state.withLock { state in
                defer { state.toldLater = [] }
                return state.toldLater
            }
            // Nothing to tell: the camera is quiet for as long as it is listened to, as a real one is.
            if told.isEmpty { try? await Task.sleep(for: .milliseconds(Int(min(quiet, limit)))) }
            return told
        }
    }

    public func download(_ file: GPhotoFile, limit: Int) async throws(GPhotoError) -> [UInt8] {
        try await one { [self] () throws(GPhotoError) -> [UInt8] in
            try checkPlugged()
            guard let bytes = state.withLock({ $0.card[file.name] }) else {
                throw GPhotoError(code: GP_ERROR_FILE_NOT_FOUND, "\(file.name) is not on the card")
            }
            return bytes
        }
    }

    public func delete(_ file: GPhotoFile) async throws(GPhotoError) {
        try await one { [self] () throws(GPhotoError) in
            try checkPlugged()
            _ = state.withLock { $0.card.removeValue(forKey: file.name) }
        }
    }

    public func preview() async throws(GPhotoError) -> [UInt8] {
        try await one { [self] () throws(GPhotoError) -> [UInt8] in
            // A camera sends its live view at its own pace, about 30 pictures a second.
            try? await Task.sleep(for: .milliseconds(33))
            try checkPlugged()
            return try state.withLock { state throws(GPhotoError) -> [UInt8] in
                guard !state.liveView.isEmpty else { throw GPhotoError(code: GP_ERROR_NOT_SUPPORTED, "the scripted camera has no live view") }
                defer { state.previews += 1 }
                return state.liveView[state.previews % state.liveView.count]
            }
        }
    }

    public func settings() async throws(GPhotoError) -> [GPhotoSetting] { [] }

    public func set(_ name: String, to value: String) async throws(GPhotoError) -> GPhotoSetting {
        throw GPhotoError(code: GP_ERROR_BAD_PARAMETERS, "the scripted camera has no setting \(name)")
    }

    public func close() async {}

    private func checkPlugged() throws(GPhotoError) {
        guard state.withLock({ $0.plugged }) else {
            throw GPhotoError(code: GP_ERROR_IO_USB_FIND, "the camera could not be reached: no such camera is connected at \(port)")
        }
    }
}
