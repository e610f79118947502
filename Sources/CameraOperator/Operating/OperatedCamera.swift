import CameraKit
import FoundationEssentials

/// What a ``SessionOperator`` drives: a running camera's photos, preview, movies and settings.
/// `CaptureSession` is one; a test's camera made in memory is another, so the operator's flows
/// (reviews, booths, bursts, countdowns) can be proven without a pipeline.
public protocol OperatedCamera: AnyObject, Sendable {
    /// A photo of the frame `settings` ask for, newer than `previous`'s.
    func capture(_ settings: PhotoSettings, after previous: Photo?) async throws(CaptureError) -> Photo
    /// A photo of the frame taken nearest `instant` (within `tolerance` seconds of being late).
    func capture(_ settings: PhotoSettings, nearest instant: Date, tolerance: Double) async throws(CaptureError) -> Photo
    /// `count` photos of consecutive frames, all held until the last is taken.
    func captureBurst(count: Int, _ settings: PhotoSettings) async throws(CaptureError) -> [Photo]
    /// `count` photos of consecutive frames, each handed to `handle` once encoded, within the
    /// camera's memory budget for bursts.
    func captureBurst(count: Int, _ settings: PhotoSettings,
                      each handle: @escaping @Sendable (Photo) async -> Void) async throws(CaptureError) -> PhotoOutput.BurstSummary

    /// Changes to another camera while running.
    func switchDevice(to device: CaptureDevice) async throws(CaptureError)
    /// The filters, tones, zoom and aspect the picture has now.
    var image: ImageSettings { get async }
    /// Changes filters, tones, zoom or aspect while running.
    func changeImage(to image: ImageSettings) async throws(CaptureError)
    /// The colour of the green screen behind the subject as the camera sees it lit, sampled from
    /// the picture's edges with any keying set aside for that frame.
    func sampleScreenColor() async throws(CaptureError) -> RGBColor
    /// Stops the camera.
    func stop() async
    /// Calls `observe` with what happens to the camera from now on (lost, back, switched,
    /// stopped), at once and in order, for the operator to tell on its events; `observe` never blocks.
    func observeEvents(_ observe: @escaping @Sendable (SessionEvent) -> Void)

    /// Shows the shutter's flash on the preview.
    func showShutter()
    /// Shows a photo's thumbnail in the preview's corner (`nil`: none).
    func showLastPhoto(_ thumbnail: [UInt8]?)
    /// Shows a picture over the whole preview until the corner is shown again.
    func showWhole(_ picture: [UInt8])
    /// Draws text over the middle of the preview (a countdown's seconds); `nil` clears it.
    func showText(_ text: String?)
    /// Draws a caption along the preview's foot (a review's hint); `nil` clears it.
    func showCaption(_ caption: String?)
    /// Pauses or resumes the preview; returns whether it is paused now.
    func pausePreview(_ paused: Bool) -> Bool
    /// Whether the preview is paused.
    var isPreviewPaused: Bool { get }

    /// Starts recording a movie into the file at `path`.
    func startRecording(to path: String, _ settings: MovieSettings) async throws(CaptureError)
    /// Pauses or resumes the movie being recorded; returns whether it is paused now.
    func pauseRecording(_ paused: Bool) -> Bool
    /// Whether the movie being recorded is paused.
    var isRecordingPaused: Bool { get }
    /// Asks the movie being recorded to end at its next frame.
    func endRecording()
    /// Waits until the movie being recorded ends (asked, or by itself at its length or size).
    func recordingEnded() async
    /// Finishes the movie's file once it has ended, and tells what was recorded.
    func stopRecording() async throws(CaptureError) -> RecordedMovie
}

extension OperatedCamera {
    /// A camera of one's own that tells nothing of itself tells the operator nothing.
    public func observeEvents(_ observe: @escaping @Sendable (SessionEvent) -> Void) {}
}

extension CaptureSession: OperatedCamera {
    public nonisolated func capture(_ settings: PhotoSettings, after previous: Photo?) async throws(CaptureError) -> Photo {
        try await photoOutput.capture(settings, after: previous)
    }

    public nonisolated func capture(_ settings: PhotoSettings, nearest instant: Date, tolerance: Double) async throws(CaptureError) -> Photo {
        try await photoOutput.capture(settings, nearest: instant, tolerance: tolerance)
    }

    public nonisolated func captureBurst(count: Int, _ settings: PhotoSettings) async throws(CaptureError) -> [Photo] {
        try await photoOutput.captureBurst(count: count, settings)
    }

    public nonisolated func captureBurst(count: Int, _ settings: PhotoSettings,
                                         each handle: @escaping @Sendable (Photo) async -> Void) async throws(CaptureError) -> PhotoOutput.BurstSummary {
        let budget = await configuration.burstMemoryBudget
        return try await photoOutput.captureBurst(count: count, settings, memoryBudget: budget, each: handle)
    }

    public nonisolated var image: ImageSettings {
        get async { await configuration.image }
    }

    public nonisolated func showShutter() { previewOutput.showShutter() }
    public nonisolated func showLastPhoto(_ thumbnail: [UInt8]?) { previewOutput.showLastPhoto(thumbnail) }
    public nonisolated func showWhole(_ picture: [UInt8]) { previewOutput.showWhole(picture) }
    public nonisolated func showText(_ text: String?) { previewOutput.overlayText = text }
    public nonisolated func showCaption(_ caption: String?) { previewOutput.caption = caption }

    public nonisolated func pausePreview(_ paused: Bool) -> Bool {
        if paused { previewOutput.pause() } else { previewOutput.resume() }
        return previewOutput.isPaused
    }

    public nonisolated var isPreviewPaused: Bool { previewOutput.isPaused }

    public nonisolated func startRecording(to path: String, _ settings: MovieSettings) async throws(CaptureError) {
        try await movieOutput.startRecording(to: path, settings)
    }

    public nonisolated func pauseRecording(_ paused: Bool) -> Bool {
        if paused { movieOutput.pauseRecording() } else { movieOutput.resumeRecording() }
        return movieOutput.isPaused
    }

    public nonisolated var isRecordingPaused: Bool { movieOutput.isPaused }

    public nonisolated func endRecording() { movieOutput.endRecording() }
    public nonisolated func recordingEnded() async { await movieOutput.recordingEnded() }
    public nonisolated func stopRecording() async throws(CaptureError) -> RecordedMovie { try await movieOutput.stopRecording() }
}
