import Formatting
import FoundationEssentials
import Glibc
import GStreamer
import HEIF
import ImageMetadata
import Synchronization

/// Takes photos from the session's still branch, as AVCapturePhotoOutput does.
///
/// A capture takes a frame the session already has (zero shutter lag) and encodes it off the
/// camera's thread; several captures may overlap, and their photos are published in request order.
public final class PhotoOutput: Sendable {
    /// Whether a capture can start now.
    public enum Readiness: Sendable, Equatable {
        /// The session is not running.
        case notRunning
        /// A capture starts at once.
        case ready
        /// Earlier captures are still being encoded; a new one queues behind them.
        case busy
        /// The session runs without photos (``SessionConfiguration/capturesPhotos`` is false):
        /// captures are refused.
        case noPhotos
    }

    /// What the running session lends the output.
    struct Attachment: Sendable {
        let encoders: PhotoEncoders
        let clock: Element
        /// How long the first photo waits for the picture to settle.
        let settlingTimeout: Duration?
        var deviceName: String
        /// The camera's flash, where its driver offers V4L2 flash controls.
        var flash: Flash?
        var framing: Framing
        /// Whether the session holds frames for photos (``SessionConfiguration/capturesPhotos``);
        /// without, captures are refused and the encoders serve movie thumbnails alone.
        let takesPhotos: Bool
    }

    /// What the session's image settings make of its photos.
    struct Framing: Sendable {
        /// The picture's size after zoom and aspect ratio.
        let width: Int
        let height: Int
        /// The session's rotation (``ImageSettings/rotation``), added to each photo's.
        let rotation: Int
        /// Whether photos are recorded as mirrored (``ImageSettings/mirrorsPhotos``).
        let mirrorsPhotos: Bool
        /// Whether photos are turned in their pixels (``ImageSettings/turnsPhotoPixels``).
        let turnsPhotoPixels: Bool
        /// Whether an MJPEG camera's own JPEG is the photo: not when filters, colour adjustments,
        /// zoom or cropping change the pixels.
        let takesCameraJPEGs: Bool

        /// The framing a session's pipeline gives its photos.
        init(_ layout: SessionPipeline) {
            let image = layout.image
            (width, height) = image.outputSize
            rotation = image.settings.rotation
            mirrorsPhotos = image.settings.mirrorsPhotos
            turnsPhotoPixels = image.settings.turnsPhotoPixels
            takesCameraJPEGs = layout.format.mediaType == "image/jpeg" && !image.changesPixels && layout.configuration.filters.isEmpty
        }

        /// A photo's settings as this framing resolves them.
        func resolve(_ settings: PhotoSettings, flashFires: Bool = false) -> ResolvedPhotoSettings {
            ResolvedPhotoSettings(settings, width: width, height: height, flashFires: flashFires,
                                  sessionRotation: rotation, mirrored: mirrorsPhotos)
        }

        /// `resolved` turned in its pixels where this framing turns them (a tiled HEIC never is).
        func turningPixels(_ resolved: ResolvedPhotoSettings, of settings: PhotoSettings) -> ResolvedPhotoSettings {
            turnsPhotoPixels && !settings.usesHEVCTiles ? resolved.turningPixels() : resolved
        }
    }

    private struct State {
        var attachment: Attachment?
        /// Encoders started for a session that is starting, until it runs.
        var prepared: PhotoEncoders?
        /// Encoders of a session that stopped, to be stopped once its pipeline has.
        var retired: [PhotoEncoders] = []
        /// Why the session stopped, while it is stopped: what a capture request is told.
        var detachedReason: CaptureError?
        var nextID = 1
        var inFlight = 0
        /// Who waits for the captures in flight to end (``capturesEnded()``).
        var waitingForCaptures: [CheckedContinuation<Void, Never>] = []
        /// Finished photos waiting for earlier captures, so the stream keeps request order.
        var finished: [Int: Photo?] = [:]
        var nextToPublish = 1
    }

    let feed = FrameFeed()
    let settling = SettlingMonitor()
    /// The settings whose encoders a starting session starts early (``setPreparedPhotoSettings(_:)``).
    let preparedSettings = Mutex<[PhotoSettings]>([])
    /// The last JPEG frames of a camera that sends MJPEG, matched to raw frames by timestamp.
    private let cameraJPEGs = Mutex<[Sample]>([])
    /// The camera's own shutter, while the session's camera fires one (a DSLR's): photos are the
    /// files it writes, not frames of the feed.
    let cameraShutter = Mutex<CameraShutter?>(nil)
    private let state = Mutex(State())
    let recentSnapshot = RecentSnapshot()
    private let photoStream = Broadcast<Photo>()
    let eventStream = Broadcast<PhotoCaptureEvent>()

    init() {}

    /// Every photo taken from now on, in request order (a photo stream).
    public func photos(bufferingNewest limit: Int = 16) -> AsyncStream<Photo> {
        photoStream.subscribe(bufferingNewest: limit)
    }

    /// The lifecycle events of every capture from now on.
    public func events(bufferingNewest limit: Int = 256) -> AsyncStream<PhotoCaptureEvent> {
        eventStream.subscribe(bufferingNewest: limit)
    }

    /// The frame on screen now as a JPEG of `width`x`height` (after turning by the `videoflip`
    /// method `turn`): a still of the camera for the preview; `nil` without a frame.
    func still(width: Int, height: Int, turn: String) async -> [UInt8]? {
        guard let frame = try? feed.latest(), let encoders = state.withLock({ $0.attachment?.encoders }) else { return nil }
        return try? await encoders.encodeJPEG(RangeExpansion.fullRange(frame) ?? frame, quality: 80, width: width, height: height, turn: turn)
    }

    /// A frame of another output (a movie's first) as a JPEG thumbnail whose longer side is at
    /// most `maximumSide`; `nil` when the session is not running.
    func thumbnail(of frame: Sample, maximumSide: Int) async -> [UInt8]? {
        guard let size = Self.size(of: frame, within: maximumSide), let encoders = state.withLock({ $0.attachment?.encoders }) else { return nil }
        return try? await encoders.encodeJPEG(RangeExpansion.fullRange(frame) ?? frame, quality: 80, width: size.width, height: size.height)
    }

    /// A frame's size brought down (never up) so that its longer side is at most `maximumSide`,
    /// in even numbers; `nil` when the frame does not say its size.
    private static func size(of frame: Sample, within maximumSide: Int) -> (width: Int, height: Int)? {
        guard let info = frame.videoInfo else { return nil }
        let scale = min(1, Double(maximumSide) / Double(max(info.width, info.height, 1)))
        return (max(2, Int((Double(info.width) * scale / 2).rounded()) * 2), max(2, Int((Double(info.height) * scale / 2).rounded()) * 2))
    }

    /// The frame held now (the one a photo taken now would be of) as a JPEG of its own size, or
    /// brought down to a longer side of `maximumSide`, without metadata, answered without waiting
    /// for a new frame: a snapshot. A frame is encoded once: requests for the frame already
    /// encoded, or being encoded, at the same quality and size are answered with those bytes.
    ///
    /// - Throws: A ``CaptureError`` when the session is not running, takes no photos (and so
    ///   holds no frame), or has no frame yet.
    public func snapshot(quality: Int = 85, maximumSide: Int? = nil) async throws(CaptureError) -> [UInt8] {
        if state.withLock({ $0.attachment?.takesPhotos == false }) {
            throw CaptureError(.invalidSetting, "this session takes no photos, so it holds no frame for a snapshot; configure it with capturesPhotos")
        }
        guard let encoders = state.withLock({ $0.attachment?.encoders }), let (frame, number) = try feed.latestNumbered() else {
            throw CaptureError(.notRunning, "the camera has no picture yet; try again in a moment")
        }
        let size = maximumSide.flatMap { Self.size(of: frame, within: $0) }
        let key = RecentSnapshot.Key(frame: number, quality: quality, width: size?.width)
        return try await recentSnapshot.snapshot(of: key) { () async throws(CaptureError) in
            try await encoders.encodeJPEG(RangeExpansion.fullRange(frame) ?? frame, quality: quality, width: size?.width, height: size?.height)
        }
    }

    /// The running session's encoders and the framing of its photos.
    var runningEncoders: (encoders: PhotoEncoders, framing: Framing)? {
        state.withLock { state in state.attachment.map { ($0.encoders, $0.framing) } }
    }

    /// The running session's HEVC encoders.
    var hevcEncoders: HEVCEncoders? { state.withLock { $0.attachment?.encoders.hevc } }

    /// Whether a capture can start now.
    public var readiness: Readiness {
        state.withLock { state in
            guard let attachment = state.attachment else { return .notRunning }
            guard attachment.takesPhotos else { return .noPhotos }
            return state.inFlight > 0 ? .busy : .ready
        }
    }

    /// Takes a photo.
    ///
    /// With prioritization `speed` or `balanced` the photo is the frame current at the request;
    /// with `quality`, the first frame taken at or after the request. With `previous`, the photo
    /// is of a later frame than that photo's (a series of photos taken in quick succession never
    /// repeats a frame).
    public func capture(_ settings: PhotoSettings = PhotoSettings(), after previous: Photo? = nil) async throws(CaptureError) -> Photo {
        if let shutter = cameraShutter.withLock({ $0 }) { return try await capture(settings, firing: shutter) }
        let request = try begin(settings)
        return try await complete(request) { () async throws(CaptureError) -> Sample in
            if request.resolved.isFlashFired, let flash = request.attachment.flash {
                return try await frameLitByFlash(flash)
            }
            return try await chooseFrame(for: settings.prioritization, settlingTimeout: request.attachment.settlingTimeout,
                                         newerThan: previous?.frameTime, requestTime: request.requestTime, current: request.currentFrame)
        }
    }

    /// Takes the photo of the frame the camera took nearest `instant` (on the system's real-time
    /// clock): a fleet's synchronized capture, where every camera is asked for the same instant
    /// ahead of time. Frames are looked at as they come until the first taken after the instant
    /// (the few just before are held meanwhile), so no node waits for a frame beyond that one, and
    /// cameras agree to within a frame interval and their clocks' agreement.
    ///
    /// - Throws: A ``CaptureError`` (`timeout`) when the instant passed more than `tolerance`
    ///   seconds before the request: the photo is not taken late.
    public func capture(_ settings: PhotoSettings = PhotoSettings(), nearest instant: Date, tolerance: Double = 0.1) async throws(CaptureError) -> Photo {
        let late = Date().timeIntervalSince(instant)
        guard late <= tolerance else {
            throw CaptureError(.timeout, String(printf: "the capture time had passed %.3f s before the request came (more than %.3f s); no photo was taken", late, tolerance))
        }
        // A camera that fires its own shutter holds no frames: it is fired at the instant.
        if let shutter = cameraShutter.withLock({ $0 }) {
            let ahead = instant.timeIntervalSinceNow
            if ahead > 0, (try? await Task.sleep(for: .seconds(ahead))) == nil {
                throw CaptureError(.interrupted, "the capture was cancelled before its instant; no photo was taken")
            }
            return try await capture(settings, firing: shutter)
        }
        feed.holdRecent()
        defer { feed.releaseRecent() }
        let request = try begin(settings)
        return try await complete(request) { () async throws(CaptureError) -> Sample in
            try await frame(nearest: instant)
        }
    }

    /// The frame taken nearest `instant`: of those held, and those that come until one is taken after it.
    private func frame(nearest instant: Date) async throws(CaptureError) -> Sample {
        var best: (frame: Sample, distance: Double)?
        func consider(_ frame: Sample) -> Date? {
            guard let taken = feed.instant(of: frame) else { return nil }
            let distance = abs(taken.timeIntervalSince(instant))
            if best.map({ distance < $0.distance }) ?? true { best = (frame, distance) }
            return taken
        }
        let held = feed.recentFrames() + [try feed.latest()].compactMap { $0 }
        let newest = held.map(consider).compactMap { $0 }.max()
        if newest.map({ $0 < instant }) ?? true {
            do {
                for try await frame in feed.frames(count: .max, frameTimeout: .seconds(5)) {
                    if let taken = consider(frame), taken >= instant { break }
                }
            } catch {
                throw CaptureError.converting(error, context: "waiting for the frame of the capture time failed")
            }
            if Task.isCancelled {
                throw CaptureError(.interrupted, "the capture was given up before its time came; no photo was taken")
            }
        }
        guard let best else { throw CaptureError(.interrupted, "the camera's frames have no time; no photo was taken") }
        return best.frame
    }

    /// Takes `count` photos of consecutive frames, each frame a different one, encoding each as
    /// soon as it arrives. Photos come back in frame order, and each is a capture of its own,
    /// with its own id and events. Every photo is held until the burst ends: a long burst hands
    /// each on as it completes with ``captureBurst(count:_:memoryBudget:each:)``.
    public func captureBurst(count: Int, _ settings: PhotoSettings = PhotoSettings()) async throws(CaptureError) -> [Photo] {
        let photos = Mutex<[Photo]>([])
        _ = try await captureBurst(count: count, settings, memoryBudget: Int.max) { photo in photos.withLock { $0.append(photo) } }
        return photos.withLock { $0 }.sorted { $0.captureID < $1.captureID }
    }

    /// What a burst did: the photos taken, and the frames it let pass because the photos in
    /// hand filled its memory budget (the camera outran the encoder or the destination).
    public struct BurstSummary: Sendable, Equatable {
        public let taken: Int
        /// The numbers of the frames let pass, counted from the burst's first frame (0).
        public let skippedFrames: [Int]

        public init(taken: Int, skippedFrames: [Int]) {
            (self.taken, self.skippedFrames) = (taken, skippedFrames)
        }
    }

    /// The memory a burst's raw frames and photos in hand may take, unless told otherwise.
    public static let defaultBurstMemoryBudget = 32 * 1_048_576

    /// Takes `count` photos of frames as they come, handing each to `handle` as soon as it is
    /// encoded (on a task of its own; photos may be handed on out of order). Frames whose photos
    /// are not yet handed on are held only within `memoryBudget` bytes (counted at their raw
    /// size), and so are frames waiting to be looked at: while it is full, frames are let pass,
    /// and their numbers come back in the summary, so a burst of any length runs in bounded
    /// memory. At least one photo is always in hand. Cancelled, the burst takes no more frames;
    /// the photos of those taken are finished and handed on all the same.
    public func captureBurst(count: Int, _ settings: PhotoSettings = PhotoSettings(), memoryBudget: Int,
                             each handle: @escaping @Sendable (Photo) async -> Void) async throws(CaptureError) -> BurstSummary {
        guard count > 0 else { return BurstSummary(taken: 0, skippedFrames: []) }
        if let shutter = cameraShutter.withLock({ $0 }) {
            // A camera that fires its own shutter: one photo after another, as fast as it takes them.
            for _ in 0..<count { await handle(try await capture(settings, firing: shutter)) }
            return BurstSummary(taken: count, skippedFrames: [])
        }
        var settings = settings
        if settings.flashMode == .auto { settings.flashMode = .off }  // a flash cannot recharge between burst frames
        try validate(settings)
        let timeout = state.withLock { $0.attachment?.settlingTimeout }
        _ = try await firstSettledFrame(waitingAtMost: timeout)
        // The budget is shared: half for the frames and photos in hand, half for frames waiting to
        // be looked at (at least two); a frame the burst falls that far behind on is missed, not
        // held, and told by the gap in the numbers.
        let inHand = BurstBudget(bytes: memoryBudget == Int.max ? .max : memoryBudget / 2)
        let frameBytes = state.withLock { $0.attachment.map { $0.framing.width * $0.framing.height * 3 / 2 } } ?? 0
        let waiting = memoryBudget == Int.max || frameBytes == 0 ? nil : max(2, memoryBudget / 2 / frameBytes)
        let frames = feed.frames(count: .max, frameTimeout: .seconds(5), keepingAtMost: waiting)
        do {
            // A discarding group lets each finished photo's task go at once: a group that kept
            // them until the end would grow with the burst.
            return try await withThrowingDiscardingTaskGroup { group in
                var (taken, skipped, numbering) = (0, [Int](), BurstNumbering())
                for try await frame in frames {
                    let (number, missed) = numbering.number(of: frame)
                    skipped += missed
                    // The frame is in hand until its photo is handed on (a HEIC finished later keeps
                    // it for its spool, written from the frame itself).
                    let size = frame.buffer?.count ?? 0
                    guard inHand.reserve(size) else {
                        skipped.append(number)
                        continue
                    }
                    let request = try begin(settings)
                    // Its own task, which a cancelled burst does not cancel: a frame taken is a photo.
                    let photo = Task { try await self.complete(request) { () async throws(CaptureError) -> Sample in frame } }
                    group.addTask {
                        defer { inHand.release(size) }
                        await handle(try await photo.value)
                    }
                    taken += 1
                    if taken == count || Task.isCancelled { break }
                }
                return BurstSummary(taken: taken, skippedFrames: skipped)
            }
        } catch {
            throw CaptureError.converting(error, context: "the burst failed")
        }
    }

    /// A capture that has an id and settings, and waits for its frame.
    struct Request: Sendable {
        let id: Int
        let attachment: Attachment
        let settings: PhotoSettings
        let resolved: ResolvedPhotoSettings
        let requestedAt: Date
        let requestTime: ClockTime?
        /// The newest frame when the request came (for `speed` and `balanced`).
        let currentFrame: Sample?
    }

    /// Accepts a capture: checks the settings, gives it an id, and announces the shutter moment.
    func begin(_ settings: PhotoSettings) throws(CaptureError) -> Request {
        // The frame current at the request is noted before its instant: a frame that arrives
        // while the request is taken (a thread descheduled between the two) is not mistaken for it.
        let currentFrame = settings.prioritization == .quality ? nil : try? feed.latest()
        let requestedAt = Date()
        try validate(settings)
        let (id, attachment) = try state.withLock { state throws(CaptureError) in
            guard let attachment = state.attachment else {
                throw state.detachedReason ?? CaptureError(.notRunning, "the session is not running; start it before capturing")
            }
            guard attachment.takesPhotos else {
                throw CaptureError(.invalidSetting, "this session takes no photos; configure it with capturesPhotos to take them")
            }
            defer { state.nextID += 1; state.inFlight += 1 }
            return (state.nextID, attachment)
        }
        let framing = attachment.framing
        let resolved = framing.resolve(settings, flashFires: firesFlash(settings.flashMode, on: attachment))
        let request = Request(id: id, attachment: attachment, settings: settings, resolved: resolved,
                              requestedAt: requestedAt, requestTime: attachment.clock.runningTime, currentFrame: currentFrame)
        eventStream.send(.willBeginCapture(id: id, resolved))
        eventStream.send(.willCapturePhoto(id: id))
        return request
    }

    /// Takes the request's frame, encodes the photo and its thumbnail together, and publishes it.
    private func complete(_ request: Request,
                          frame takeFrame: () async throws(CaptureError) -> Sample) async throws(CaptureError) -> Photo {
        let id = request.id, attachment = request.attachment
        do {
            let frame = try await takeFrame()
            eventStream.send(.didCapturePhoto(id: id))
            let buffer = frame.buffer
            // The photo has its frame's size, which the image settings may have changed since the request.
            var sized = request.resolved
            if let info = frame.videoInfo, (info.width, info.height) != (sized.width, sized.height) {
                sized = sized.resized(width: info.width, height: info.height)
            }
            sized = attachment.framing.turningPixels(sized, of: request.settings)
            // An MJPEG camera's own JPEG of this frame, kept as it is when it has the photo's size.
            let keepsCameraJPEG = sized.codec == .jpeg && attachment.framing.takesCameraJPEGs && sized.pixelTurn == nil
            let cameraJPEG = keepsCameraJPEG ? cameraJPEG(taken: buffer?.presentationTime) : nil
            // The photo is dated by its frame's instant, not by the request.
            let capturedAt = feed.instant(of: frame) ?? request.requestedAt
            let exif = metadata(deviceName: attachment.deviceName, resolved: sized, capturedAt: capturedAt,
                                hasFlash: attachment.flash != nil)
            // A HEIC processed later: its frame is kept now, and a JPEG proxy made in its place.
            let pending = sized.codec == .hevc && request.settings.defersHEVCProcessing
                ? try PendingHEVC(frame: frame, layout: Self.heicLayout(sized, tiled: request.settings.usesHEVCTiles, exif: exif))
                : nil
            let encoded = pending == nil ? sized : sized.proxy()
            let resolved = cameraJPEG == nil ? encoded : encoded.usingCameraJPEG()
            // JPEG stores full-range samples; the camera's are often video range (16–235). The
            // stretched copy is made once, only when a JPEG is encoded from the frame.
            let encodesJPEG = (resolved.codec == .jpeg && cameraJPEG == nil) || resolved.thumbnailWidth > 0
            let jpegFrame = encodesJPEG ? (RangeExpansion.fullRange(frame) ?? frame) : frame
            async let thumbnail: [UInt8] = resolved.thumbnailWidth > 0
                ? attachment.encoders.encodeJPEG(jpegFrame, quality: 80, width: resolved.thumbnailWidth, height: resolved.thumbnailHeight,
                                                 turn: resolved.pixelTurn)
                : []
            let fileData: [UInt8], thumbnailData: [UInt8]
            if resolved.codec == .hevc {
                fileData = try await heifFile(of: frame, exif: exif, resolved: resolved, request: request)
                thumbnailData = try await thumbnail
            } else {
                let picture: [UInt8]
                if let cameraJPEG {
                    guard let jpeg = cameraJPEG.buffer else { throw CaptureError(.pipeline, "the camera's JPEG frame holds no data") }
                    picture = try jpeg.bytes()
                } else {
                    picture = try await attachment.encoders.encodeJPEG(jpegFrame, quality: request.settings.quality, turn: resolved.pixelTurn)
                }
                // The thumbnail goes inside the JPEG too, in EXIF's IFD1, as cameras put theirs.
                thumbnailData = try await thumbnail
                var withThumbnail = exif
                withThumbnail.thumbnail = thumbnailData.isEmpty ? nil : thumbnailData
                fileData = try JPEGFile.embeddingExif(withThumbnail.tiffData(), in: picture)
            }
            let photo = Photo(
                captureID: id, fileData: fileData, thumbnailData: thumbnailData, resolvedSettings: resolved,
                orientation: exif.orientation, deviceName: attachment.deviceName, requestedAt: request.requestedAt,
                capturedAt: capturedAt, requestTime: request.requestTime, frameTime: buffer?.presentationTime, frameNumber: buffer?.offset,
                pendingHEVC: pending)
            return published(photo)
        } catch {
            finish(id, with: nil)
            var failure = (error as? CaptureError) ?? CaptureError(.pipeline, "the photo could not be made: \(error)")
            // The session stopped under the capture (a video used as a camera ended, the camera
            // went away) and its encoders with it: the stop's reason says what happened.
            if let reason = state.withLock({ $0.attachment?.encoders !== attachment.encoders ? $0.detachedReason : nil }) { failure = reason }
            eventStream.send(.didFinishCapture(id: id, error: failure))
            throw failure
        }
    }

    /// Hands a photo made to whoever waits for its capture, and tells its end.
    func published(_ photo: Photo) -> Photo {
        eventStream.send(.didFinishProcessingPhoto(id: photo.captureID))
        finish(photo.captureID, with: photo)
        eventStream.send(.didFinishCapture(id: photo.captureID, error: nil))
        return photo
    }

    private func validate(_ settings: PhotoSettings) throws(CaptureError) {
        guard [0, 90, 180, 270].contains(settings.rotation) else {
            throw CaptureError(.invalidSetting, "a rotation of \(settings.rotation) degrees is not 0, 90, 180 or 270")
        }
        guard (1...100).contains(settings.quality) else {
            throw CaptureError(.invalidSetting, "the photo quality \(settings.quality) is out of range; use 1 to 100")
        }
        let (camera, flash) = state.withLock { ($0.attachment?.deviceName, $0.attachment?.flash) }
        guard settings.flashMode != .on || flash != nil else {
            throw CaptureError(.invalidSetting, "\(camera ?? "the camera") has no flash; use flash off or auto")
        }
    }

    /// The photo as a HEIF file, encoded by the session's HEVC encoders.
    private func heifFile(of frame: Sample, exif: ExifMetadata, resolved: ResolvedPhotoSettings,
                          request: Request) async throws(CaptureError) -> [UInt8] {
        try await HEICFile.encode(frame, as: Self.heicLayout(resolved, tiled: request.settings.usesHEVCTiles, exif: exif),
                                  with: request.attachment.encoders.hevc)
    }

    static func heicLayout(_ resolved: ResolvedPhotoSettings, tiled: Bool, exif: ExifMetadata) -> HEICFile.Layout {
        HEICFile.Layout(width: resolved.width, height: resolved.height, quality: resolved.quality, isTiled: tiled,
                        turn: resolved.pixelTurn ?? "none", thumbnailWidth: resolved.thumbnailWidth,
                        thumbnailHeight: resolved.thumbnailHeight, exif: exif.tiffData(), orientation: exif.orientation)
    }

    /// Whether the flash fires: always with `on`; with `auto`, when the picture is dark.
    private func firesFlash(_ mode: PhotoSettings.FlashMode, on attachment: Attachment) -> Bool {
        guard attachment.flash != nil else { return false }
        switch mode {
        case .off: return false
        case .on: return true
        case .auto:
            guard let frame = try? feed.latest(), let statistics = SettlingMonitor.statistics(of: frame) else { return false }
            return statistics.luma < Self.darkLuma
        }
    }

    /// Below this mean luma (0–1) a scene is dark enough for `auto` to fire the flash.
    static let darkLuma = 0.25

    /// Fires the flash and takes the third frame after it, exposed while the flash is lit (the
    /// first ones were being exposed when it fired), then turns the flash off.
    private func frameLitByFlash(_ flash: Flash) async throws(CaptureError) -> Sample {
        try flash.fire()
        defer { flash.reset() }
        var lit: Sample?
        do {
            for try await frame in feed.frames(count: 3, frameTimeout: .seconds(5)) { lit = frame }
        } catch {
            throw CaptureError.converting(error, context: "waiting for the flash-lit frame failed")
        }
        guard let lit else { throw CaptureError(.interrupted, "the camera stopped before the flash-lit frame") }
        return lit
    }

    private func chooseFrame(for prioritization: PhotoSettings.QualityPrioritization, settlingTimeout: Duration?,
                             newerThan previous: ClockTime?, requestTime: ClockTime?, current: Sample?) async throws(CaptureError) -> Sample {
        if let settled = try await firstSettledFrame(waitingAtMost: settlingTimeout) {
            return settled
        }
        if prioritization == .quality {
            // Not merely the next frame to arrive: on a busy machine that may have been taken before the request.
            return try await feed.next(takenAfter: requestTime, timeout: .seconds(5))
        }
        var newest = current
        if newest == nil { newest = try feed.latest() }
        if let current = newest {
            guard let previous, let time = current.buffer?.presentationTime, time <= previous else { return current }
        }
        return try await feed.next(timeout: .seconds(5))
    }

    /// The next frame once the picture has settled after a start or switch (a frame of the
    /// picture as it is now, not one taken before a change of its settings).
    func nextSettledFrame() async throws(CaptureError) -> Sample {
        let timeout = state.withLock { $0.attachment?.settlingTimeout }
        if let settled = try await firstSettledFrame(waitingAtMost: timeout) { return settled }
        return try await feed.next(timeout: .seconds(5))
    }

    /// After a start or switch, waits for the first frame whose exposure and colour have settled
    /// (or the timeout) and returns it; `nil` when the picture had settled already. The timeout is
    /// the camera's own time, counted by its frames' times: a machine too busy to take the frames
    /// as they come does not cut the wait short. Frames without a time fall back on the clock's,
    /// ten times as long.
    private func firstSettledFrame(waitingAtMost timeout: Duration?) async throws(CaptureError) -> Sample? {
        guard let timeout, !settling.isSettled else { return nil }
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        let deadline = ContinuousClock.now + timeout * 10
        var first: Double?
        do {
            for try await frame in feed.frames(count: .max, frameTimeout: .seconds(5)) {
                if settling.isSettled(frame) || ContinuousClock.now >= deadline { return frame }
                guard let time = frame.buffer?.presentationTime?.seconds else { continue }
                if let first, time - first >= seconds { return frame }
                first = first ?? time
            }
        } catch {
            throw CaptureError.converting(error, context: "waiting for the picture to settle failed")
        }
        return nil
    }

    private func metadata(deviceName: String, resolved: ResolvedPhotoSettings, capturedAt: Date, hasFlash: Bool) -> ExifMetadata {
        var exif = ExifMetadata()
        exif.make = "camctl"
        exif.model = deviceName
        exif.software = "camctl \(CameraKitVersion.current)"
        exif.dateTimeOriginal = capturedAt
        exif.pixelWidth = resolved.width
        exif.pixelHeight = resolved.height
        exif.orientation = resolved.exifOrientation
        exif.flash = resolved.isFlashFired ? .fired : (hasFlash ? .off : .noFlashFunction)
        return exif
    }

    /// Records a capture's end and publishes, in request order, every photo that is now due.
    func finish(_ id: Int, with photo: Photo?) {
        let (due, ended) = state.withLock { state -> ([Photo], [CheckedContinuation<Void, Never>]) in
            state.inFlight -= 1
            var ended: [CheckedContinuation<Void, Never>] = []
            if state.inFlight == 0 { swap(&ended, &state.waitingForCaptures) }
            state.finished[id] = .some(photo)
            var due: [Photo] = []
            while let next = state.finished.removeValue(forKey: state.nextToPublish) {
                if let next { due.append(next) }
                state.nextToPublish += 1
            }
            return (due, ended)
        }
        for waiting in ended { waiting.resume() }
        for photo in due { photoStream.send(photo) }
    }

    /// Keeps the encoders started for a session that is starting, until ``attach(_:)``.
    func keep(prepared encoders: PhotoEncoders) {
        state.withLock { $0.prepared = encoders }
    }

    /// Connects the output to its running session, with the encoders kept for it: photos can be
    /// taken from now on.
    func attach(_ makeAttachment: (PhotoEncoders) -> Attachment) {
        state.withLock { state in
            guard let encoders = state.prepared else { return }
            state.prepared = nil
            state.attachment = makeAttachment(encoders)
            state.detachedReason = nil
        }
    }

    /// Keeps a JPEG frame as an MJPEG camera sent it; called on the streaming thread.
    func receiveCameraJPEG(_ frame: Sample) {
        cameraJPEGs.withLock { frames in
            frames.append(frame)
            if frames.count > 4 { frames.removeFirst() }
        }
    }

    /// The camera's own JPEG of the frame taken at `time`, if the camera sends MJPEG.
    private func cameraJPEG(taken time: ClockTime?) -> Sample? {
        guard let time else { return nil }
        return cameraJPEGs.withLock { frames in
            frames.last { $0.buffer?.presentationTime == time && $0.buffer != nil }
        }
    }

    /// Takes a frame of the still branch; called on the streaming thread.
    func receive(_ frame: Sample) {
        settling.observe(frame)
        feed.append(frame, realTimeAtZero: realTimeAtZero())
    }

    /// The system's real-time clock at the pipeline's running time zero, measured now: the
    /// real-time clock's reading less the running time's (its clock, monotonic, less the moment
    /// it started playing). The running time is read between two readings of the real-time
    /// clock, and their span is how far the measure can be off: a thread preempted between the
    /// readings (a busy machine) gives a wide span, and the feed keeps an earlier, closer measure.
    /// Measured again as each frame arrives, so a step of the real-time clock (NTP setting it) is
    /// followed from the next close measure on.
    private func realTimeAtZero() -> FrameFeed.RealTimeAtZero? {
        guard let clock = state.withLock({ $0.attachment?.clock }) else { return nil }
        let before = Date().timeIntervalSince1970
        guard let running = clock.runningTime else { return nil }
        let after = Date().timeIntervalSince1970
        return FrameFeed.RealTimeAtZero(seconds: (before + after) / 2 - Double(running.rawValue) / 1e9, uncertainty: after - before)
    }

    /// Frames the photos to come as the session's new image settings say.
    func reframe(_ framing: Framing) {
        state.withLock { $0.attachment?.framing = framing }
    }

    /// Points the output at a new camera of the same running session: the old camera's frames are forgotten.
    func retarget(deviceName: String, framing: Framing, flash: Flash?) {
        feed.open()
        cameraJPEGs.withLock { $0.removeAll() }
        state.withLock { state in
            state.attachment?.deviceName = deviceName
            state.attachment?.framing = framing
            state.attachment?.flash = flash
        }
    }

    /// Disconnects the output; captures waiting for a frame fail with `reason`. Its encoders
    /// are kept for ``retiredEncoders()``.
    func detach(_ reason: CaptureError) {
        feed.close(reason)
        cameraJPEGs.withLock { $0.removeAll() }
        state.withLock { state in
            state.retired += [state.attachment?.encoders, state.prepared].compactMap { $0 }
            (state.attachment, state.prepared, state.detachedReason) = (nil, nil, reason)
        }
    }

    /// Returns once no capture is in flight: those encoding have finished, and those waiting for
    /// a frame of a detached session have failed.
    func capturesEnded() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let idle = state.withLock { state -> Bool in
                guard state.inFlight > 0 else { return true }
                state.waitingForCaptures.append(continuation)
                return false
            }
            if idle { continuation.resume() }
        }
    }

    /// The encoders of sessions that stopped, handed over once to be stopped.
    func retiredEncoders() -> [PhotoEncoders] {
        state.withLock { state in
            defer { state.retired.removeAll() }
            return state.retired
        }
    }
}

/// The version written into photos' Software field.
public enum CameraKitVersion {
    public static let current = "0.2.0"
}

/// The bytes a burst holds in frames and photos not yet handed on.
private final class BurstBudget: Sendable {
    private let limit: Int
    private let used = Mutex(0)

    init(bytes: Int) {
        limit = bytes
    }

    /// Takes `bytes` when they fit, or when nothing is held (a frame larger than the budget still
    /// makes its photo).
    func reserve(_ bytes: Int) -> Bool {
        used.withLock { used in
            guard used == 0 || used + bytes <= limit else { return false }
            used += bytes
            return true
        }
    }

    func release(_ bytes: Int) {
        used.withLock { $0 -= bytes }
    }
}

/// A burst's frames numbered from its first (0) by the numbers their source gives them, so the
/// frames it never saw are known; counted as they come where the source gives none.
private struct BurstNumbering {
    private var first: UInt64?
    private var last = -1

    /// The frame's number, and those of the frames missed since the last one.
    mutating func number(of frame: Sample) -> (number: Int, missed: [Int]) {
        var number = last + 1
        if let offset = frame.buffer?.offset {
            let base = first ?? offset
            first = base
            if offset >= base, offset - base < UInt64(Int.max) { number = max(Int(offset - base), last + 1) }
        }
        defer { last = number }
        return (number, Array((last + 1)..<number))
    }
}
