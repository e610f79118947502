import CameraKit
import CameraOperator
import Foundation
import Synchronization
import TestSupport
import Testing

/// A camera made in memory for the operator's tests: its frames are counted, one for each photo
/// taken, every photo is the same small JPEG (named by the camera switched to last), captures
/// and image changes can be held mid-way for a test to act meanwhile, and what its preview would show is written down
/// for the test to read. It records no movies.
final class FakeCamera: OperatedCamera {
    /// What the preview was asked to show, in order.
    enum Shown: Equatable, Sendable {
        case shutter, corner(hasPhoto: Bool), whole, text(String?), caption(String?), paused(Bool)
    }

    private struct State {
        var nextFrame: UInt64 = 0
        var nextCapture = 0
        var shown: [Shown] = []
        var image = ImageSettings()
        var device: CaptureDevice?
        var isPreviewPaused = false
        var isStopped = false
        /// The error the next capture fails with.
        var failure: CaptureError?
        /// Whether captures and image changes wait for ``release()``, and those waiting.
        var isHolding = false
        var holding: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())
    let name = "Fake camera"

    /// The JPEG every photo is: 32x24, made once by GStreamer's own tools, or why it could not be.
    private static let made: Result<[UInt8], CaptureError> = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("camctl-fake-camera-\(getpid()).jpg").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result: ChildProcess.Result
        do {
            result = try ChildProcess.runToEnd("gst-launch-1.0", ["-q", "videotestsrc", "num-buffers=1", "pattern=ball", "!",
                                                              "video/x-raw,width=32,height=24", "!", "jpegenc", "!", "filesink", "location=\(path)"])
        } catch {
            return .failure(CaptureError(.pipeline, "the fake camera's JPEG could not be made: gst-launch-1.0 did not start: \(error)"))
        }
        guard result.status == 0, let data = FileManager.default.contents(atPath: path), data.starts(with: [0xFF, 0xD8]) else {
            return .failure(CaptureError(.pipeline, "the fake camera's JPEG could not be made: gst-launch-1.0 ended with \(result.status): \(result.standardError)"))
        }
        return .success([UInt8](data))
    }()

    /// The JPEG every photo is. A failure to make it fails the test that takes a photo, as an
    /// issue and as the capture's error: never an empty picture that a test could take for a photo.
    static func picture() throws(CaptureError) -> [UInt8] {
        do {
            return try made.get()
        } catch {
            Issue.record("\(error.message)")
            throw error
        }
    }

    /// What the preview was asked to show so far.
    var shown: [Shown] { state.withLock { $0.shown } }
    /// The camera switched to last.
    var device: CaptureDevice? { state.withLock { $0.device } }
    /// Whether the camera was stopped.
    var isStopped: Bool { state.withLock { $0.isStopped } }
    /// How many frames it made (one a photo).
    var frameCount: UInt64 { state.withLock { $0.nextFrame } }

    /// Makes the next capture fail with `error`.
    func failNextCapture(with error: CaptureError) {
        state.withLock { $0.failure = error }
    }

    /// Makes every capture and image change from now on wait, once begun, until ``release()``:
    /// what a test needs to start another flow while one is in the camera.
    func hold() {
        state.withLock { $0.isHolding = true }
    }

    /// How many captures and image changes wait for ``release()``.
    var heldCount: Int { state.withLock { $0.holding.count } }

    /// Lets every held capture and image change go on, and holds no more.
    func release() {
        let held = state.withLock { state in
            defer { (state.holding, state.isHolding) = ([], false) }
            return state.holding
        }
        held.forEach { $0.resume() }
    }

    /// Waits for ``release()`` while holding.
    private func waitWhileHolding() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let waits = state.withLock { state in
                if state.isHolding { state.holding.append(continuation) }
                return state.isHolding
            }
            if !waits { continuation.resume() }
        }
    }

    private func record(_ shown: Shown) {
        state.withLock { $0.shown.append(shown) }
    }

    private func photo(_ settings: PhotoSettings) throws(CaptureError) -> Photo {
        let taken = state.withLock { state -> Result<(Int, UInt64), CaptureError> in
            if state.isStopped { return .failure(CaptureError(.notRunning, "the camera is stopped")) }
            if let failure = state.failure {
                state.failure = nil
                return .failure(failure)
            }
            defer { (state.nextCapture, state.nextFrame) = (state.nextCapture + 1, state.nextFrame + 1) }
            return .success((state.nextCapture, state.nextFrame))
        }
        let (id, frame) = try taken.get()
        let now = Date(), resolved = ResolvedPhotoSettings(settings, width: 32, height: 24), picture = try Self.picture()
        return Photo(captureID: id, fileData: picture, thumbnailData: resolved.thumbnailWidth > 0 ? picture : [],
                     resolvedSettings: resolved, deviceName: device?.name ?? name, requestedAt: now, capturedAt: now, frameNumber: frame)
    }

    func capture(_ settings: PhotoSettings, after previous: Photo?) async throws(CaptureError) -> Photo {
        await waitWhileHolding()
        return try photo(settings)
    }

    func capture(_ settings: PhotoSettings, nearest instant: Date, tolerance: Double) async throws(CaptureError) -> Photo {
        try photo(settings)
    }

    func captureBurst(count: Int, _ settings: PhotoSettings) async throws(CaptureError) -> [Photo] {
        var photos: [Photo] = []
        for _ in 0..<count { photos.append(try photo(settings)) }
        return photos
    }

    func captureBurst(count: Int, _ settings: PhotoSettings,
                      each handle: @escaping @Sendable (Photo) async -> Void) async throws(CaptureError) -> PhotoOutput.BurstSummary {
        for _ in 0..<count { await handle(try photo(settings)) }
        return PhotoOutput.BurstSummary(taken: count, skippedFrames: [])
    }

    func switchDevice(to device: CaptureDevice) async throws(CaptureError) {
        state.withLock { $0.device = device }
    }

    var image: ImageSettings {
        get async { state.withLock { $0.image } }
    }

    func changeImage(to image: ImageSettings) async throws(CaptureError) {
        await waitWhileHolding()
        state.withLock { $0.image = image }
    }

    func stop() async {
        state.withLock { $0.isStopped = true }
    }

    /// The screen the fake camera sees: chroma green, as lit.
    static let screenColor = RGBColor(red: 0, green: 0xb1, blue: 0x40)

    func sampleScreenColor() async throws(CaptureError) -> RGBColor {
        await waitWhileHolding()
        return Self.screenColor
    }

    func showShutter() { record(.shutter) }
    func showLastPhoto(_ thumbnail: [UInt8]?) { record(.corner(hasPhoto: thumbnail != nil)) }
    func showWhole(_ picture: [UInt8]) { record(.whole) }
    func showText(_ text: String?) { record(.text(text)) }
    func showCaption(_ caption: String?) { record(.caption(caption)) }

    func pausePreview(_ paused: Bool) -> Bool {
        record(.paused(paused))
        state.withLock { $0.isPreviewPaused = paused }
        return paused
    }

    var isPreviewPaused: Bool { state.withLock { $0.isPreviewPaused } }

    func startRecording(to path: String, _ settings: MovieSettings) async throws(CaptureError) {
        throw CaptureError(.invalidSetting, "the fake camera records no movies")
    }

    func pauseRecording(_ paused: Bool) -> Bool { false }
    var isRecordingPaused: Bool { false }
    func endRecording() {}
    func recordingEnded() async {}

    func stopRecording() async throws(CaptureError) -> RecordedMovie {
        throw CaptureError(.notRunning, "the fake camera records no movies")
    }
}
