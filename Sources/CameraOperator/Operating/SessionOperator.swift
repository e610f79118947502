import CameraKit
import FoundationEssentials
import Glibc
import GStreamer
import PhotoLibrary

/// Drives a running capture session and delivers its photos: every front end (keys, signals,
/// description files, the network) asks with an ``Action`` and renders the ``Outcome``.
///
/// ```swift
/// let booth = SessionOperator(camera: session, delivery: delivery, device: camera)
/// for _ in 1...4 {
///     _ = try await booth.perform(.countdown(seconds: 3))
///     _ = try await booth.perform(.takePhoto(settings))
/// }
/// let strip = try await booth.perform(.compose(layout: .strip, quality: 90, albums: ["booth"]))
/// ```
public actor SessionOperator {
    /// The camera it drives.
    public nonisolated let camera: any OperatedCamera
    /// Where pictures go, worked on off the actor.
    let delivery: DeliveryLane
    /// Where composed pictures are copied, besides the library.
    private let compositionCopy: PhotoDelivery.Target?
    /// The albums photos go into.
    let albums: [String]
    /// The albums a running booth's shots go into as well.
    var runAlbums: [String] = []
    /// The camera the session runs on now.
    public private(set) var device: CaptureDevice
    /// Tells the front end of each picture as it is written, before its hook runs.
    private let report: (@Sendable (Delivered) throws -> Void)?
    /// How many pictures were delivered; numbers each copy's name.
    private var delivered = 0
    /// The last photo taken: the next is of a newer frame.
    private var lastPhoto: Photo?
    /// The shots taken since the last composition (at most ``ShotComposition/maximumShots``).
    var cells: [ShotComposition.Cell] = []
    /// The last composed picture, for ``Action/showResult(seconds:)``.
    var lastComposition: [UInt8]?
    /// The countdown or wait that ``Action/cutShort`` ends.
    var countdown: Task<Void, any Error>?
    /// The thumbnail of the last photo delivered, which the preview's corner shows.
    var corner: [UInt8]?
    /// What waits for a review: whether photos are held, those held, the composition held, and the
    /// composition shown before holding began (shown again when the held one is discarded).
    var holding = false
    var held: [Photo] = []
    var heldComposition: (item: DeliveryItem, picture: [UInt8], shots: [Int])?
    /// The library's id of each shot delivered, by its capture: what a composition of them names as its parts.
    var libraryIDs: [Int: Int64] = [:]
    var compositionBeforeHold: [UInt8]?
    /// The review waiting for a verdict, its number, and the timer that answers it unanswered.
    var review: (number: Int, verdict: CheckedContinuation<Verdict?, Never>, timer: Task<Void, Never>?)?
    var reviews = 0
    /// A verdict given while pictures were held but before their review waited: the review takes it.
    var earlyVerdict: Verdict?
    /// The picture shown over the whole preview now, and what it is.
    public internal(set) var shownPicture: (kind: ShownPicture, jpeg: [UInt8])?
    /// How many booths and captures run (two front ends may each start one), and whether
    /// ``Action/endRun`` asked them to end.
    var runs: (running: Int, isEnding: Bool) = (0, false)
    let eventBroadcast = Broadcast<OperatorEvent>()
    /// Finishes the library's photos taken with deferred processing, in the background; `nil`
    /// when every photo is delivered final.
    private let finishing: PhotoFinishing?
    /// What countdowns, pictures shown for a time and reviews' time-outs wait on.
    let clock: any Clock<Duration>

    /// The last booth's clip of its shots, once kept.
    public internal(set) var lastAnimation: LibraryPhoto?
    /// The movie being recorded: its number and the task that keeps it once it ends.
    var movie: (number: Int, keeping: Task<Result<KeptMovie, OperatorError>, Never>)?
    var movies = 0

    /// A new stream of what happens while actions run (a countdown's seconds, a review, a hook
    /// that failed) from now on. Any number of readers may each have one; each may fall 256 events
    /// behind before its oldest are dropped. They end with ``endEvents()``.
    public nonisolated func events() -> AsyncStream<OperatorEvent> {
        eventBroadcast.subscribe()
    }

    /// An operator for a session running on `device`, delivering photos through `delivery` (into
    /// `albums`) and composed pictures to its library and `compositionCopy`. Without a library
    /// or `compositionCopy`, a composed picture goes where the next photo's copy would.
    ///
    /// `report` is told of each picture as soon as it is written, before its hook runs (a
    /// command line prints its path then); what it throws fails the action. Photos asking for
    /// deferred processing (``PhotoSettings/defersHEVCProcessing``) are finished later when the
    /// library is their one destination, unless `defersProcessing` is false.
    ///
    /// Countdowns, pictures shown for a time and reviews' time-outs wait on `clock` (a test's own
    /// clock makes their time its to drive).
    public init(camera: any OperatedCamera, delivery: sending PhotoDelivery, device: CaptureDevice,
                albums: [String] = [], compositionCopy: PhotoDelivery.Target? = nil, defersProcessing: Bool = true,
                clock: any Clock<Duration> = ContinuousClock(), report: (@Sendable (Delivered) throws -> Void)? = nil) {
        self.camera = camera
        self.clock = clock
        self.report = report
        self.albums = albums
        self.delivery = DeliveryLane(delivery)
        self.device = device
        self.compositionCopy = compositionCopy
        let broadcast = eventBroadcast
        let finishing = defersProcessing ? self.delivery.libraryFolder.map {
            PhotoFinishing(folder: $0, report: report) { broadcast.send($0) }
        } : nil
        self.finishing = finishing
        // Photos a process ended before finishing are finished now.
        if let finishing { Task { await finishing.resume() } }
    }

    /// Waits until every photo taken with deferred processing so far is final, then stops the
    /// encoders that made them (a front end calls it before it ends).
    ///
    /// - Throws: ``OperatorError/report(_:)`` when telling of one failed (its photo is kept).
    public func finishProcessing() async throws(OperatorError) {
        let failure = await finishing?.drain()
        await finishing?.stop()
        if let failure { throw .report(failure) }
    }

    /// Ends every stream of ``events()`` once nothing more will happen (a front end that ends),
    /// so their readers see every event told before they stop.
    public func endEvents() {
        eventBroadcast.finish()
    }

    /// Whether photos taken with `settings` are finished later: when they ask to be, and the
    /// delivery takes a proxy (the library is their one destination).
    private func defers(_ settings: PhotoSettings) -> Bool {
        settings.defersHEVCProcessing && finishing != nil && delivery.defersProcessing
    }

    /// Does what the action asks.
    ///
    /// - Throws: ``OperatorError``: the camera or encoder failed, or a picture could not be written.
    public func perform(_ action: Action) async throws(OperatorError) -> Outcome {
        do {
            switch action {
            case .takePhoto(var settings):
                settings.defersHEVCProcessing = defers(settings)
                camera.showShutter()
                return try await take([try await camera.capture(settings, after: lastPhoto)])
            case .takePhotoNear(let instant, let tolerance, var settings):
                settings.defersHEVCProcessing = defers(settings)
                let photo = try await camera.capture(settings, nearest: instant, tolerance: tolerance)
                camera.showShutter()
                return try await take([photo])
            case .burst(let count, var settings):
                settings.defersHEVCProcessing = defers(settings)
                camera.showShutter()
                guard !holding else { return try await take(try await camera.captureBurst(count: count, settings)) }
                return try await burst(count: count, settings)
            case .countdown(let seconds):
                return .countdownEnded(early: await count(down: seconds))
            case .showResult(let seconds):
                guard let lastComposition else { throw OperatorError.nothingToCompose }
                return .resultShown(early: await show(lastComposition, as: .result, for: seconds))
            case .showShots(let slots, let layout, let seconds):
                let (picture, _) = try await ShotComposition.compose(cells, layout: layout, slots: slots, quality: 85)
                return .shotsShown(early: await show(picture, as: .shots, for: seconds))
            case .capture(let plan):
                return try await runCapture(plan)
            case .booth(let plan):
                return try await runBooth(plan)
            case .endRun:
                guard runs.running > 0 else { return .runEnded(false) }
                runs.isEnding = true
                countdown?.cancel()
                return .runEnded(true)
            case .holdForReview:
                if !holding { compositionBeforeHold = lastComposition }
                holding = true
                return .held(count: heldCount)
            case .review(let plan):
                return try await reviewHeld(plan)
            case .decide(let verdict):
                if review == nil, holding, heldCount > 0 {
                    earlyVerdict = verdict
                    return .decided(true)
                }
                return .decided(answerReview(verdict))
            case .cutShort:
                countdown?.cancel()
                return .cut(ended: countdown != nil)
            case .switchCamera(let next):
                try await camera.switchDevice(to: next)
                device = next
                return .switched(to: next)
            case .nextCamera:
                let current = device
                // Listing the cameras runs programs (pw-dump): off the actor and Swift's shared threads.
                guard let next = await DeviceLookup.lane.run({ Self.camera(after: current) }) else { return .noOtherCamera }
                return try await perform(.switchCamera(to: next))
            case .pausePreview, .resumePreview:
                if case .pausePreview = action { return .previewPaused(camera.pausePreview(true)) }
                return .previewPaused(camera.pausePreview(false))
            case .changeImage(let image):
                try await camera.changeImage(to: image)
                return .imageChanged(image)
            case .compose(let layout, let quality, let albums):
                return try await compose(layout: layout, quality: quality, albums: albums)
            case .startRecording(let settings):
                return try await startRecording(settings)
            case .pauseRecording, .resumeRecording:
                guard movie != nil else { throw OperatorError.notRecording }
                if case .pauseRecording = action { return .recordingPaused(camera.pauseRecording(true)) }
                return .recordingPaused(camera.pauseRecording(false))
            case .stopRecording:
                guard movie != nil else { throw OperatorError.notRecording }
                camera.endRecording()
                return .movie(try await movieKept())
            case .stop:
                countdown?.cancel()
                _ = answerReview(nil)
                if movie != nil {
                    camera.endRecording()
                    _ = try? await movieKept()
                }
                await camera.stop()
                return .stopped
            }
        } catch let error as OperatorError {
            throw error
        } catch let error as CaptureError {
            throw .capture(error)
        } catch let error as DeliveryError {
            throw .delivery(error)
        } catch {
            throw .capture(CaptureError(.pipeline, "the action failed: \(error)"))
        }
    }

    /// The camera after `current` in the list of cameras, wrapping round; `nil` when it is the only one.
    private static func camera(after current: CaptureDevice) -> CaptureDevice? {
        guard let cameras = try? DeviceDiscovery.devices(), cameras.count > 1 else { return nil }
        let index = cameras.firstIndex { $0.id == current.id } ?? -1
        return cameras[(index + 1) % cameras.count]
    }

    /// Photos just taken: shown in the preview's corner and kept for the next composition, then
    /// delivered, or held while a review is to come.
    private func take(_ photos: [Photo]) async throws(OperatorError) -> Outcome {
        photos.forEach(remember)
        if holding {
            held += photos
            return .held(count: heldCount)
        }
        var shots: [Outcome.Shot] = []
        for photo in photos { shots.append(try await deliver(photo)) }
        return .photos(shots)
    }

    /// The last photo, shown in the preview's corner, and among the cells a composition is made of.
    private func remember(_ photo: Photo) {
        lastPhoto = photo
        if !photo.thumbnailData.isEmpty { camera.showLastPhoto(photo.thumbnailData) }
        cells.append(ShotComposition.Cell(photo))
        if cells.count > ShotComposition.maximumShots { cells.removeFirst() }
    }

    /// A burst delivered as it is taken: each photo is delivered once encoded, and only what is
    /// known of it is kept after (its file is where delivery put it), so a burst of any length
    /// runs in the session's burst memory budget. Frames let pass while the budget was full are
    /// told as ``OperatorEvent/burstSkipped(frames:)``. A delivery that fails ends the burst's
    /// deliveries and fails the action once the burst is over.
    private func burst(count: Int, _ settings: PhotoSettings) async throws(OperatorError) -> Outcome {
        bursts.next += 1
        let number = bursts.next
        bursts.running[number] = ([], nil)
        defer { bursts.running[number] = nil }
        let summary: PhotoOutput.BurstSummary
        do {
            summary = try await camera.captureBurst(count: count, settings) { [self] photo in
                await deliver(photo, ofBurst: number)
            }
        } catch {
            throw .capture(error)
        }
        let (shots, failure) = bursts.running[number] ?? ([], nil)
        if !summary.skippedFrames.isEmpty { eventBroadcast.send(.burstSkipped(frames: summary.skippedFrames)) }
        if let failure { throw failure }
        return .photos(shots.sorted { $0.photo.captureID < $1.photo.captureID })
    }

    /// The bursts being taken (two may run at once, from two front ends), by number: their shots,
    /// and the first failure to deliver one.
    private var bursts: (next: Int, running: [Int: (shots: [Outcome.Shot], failure: OperatorError?)]) = (0, [:])

    private func deliver(_ photo: Photo, ofBurst number: Int) async {
        guard bursts.running[number]?.failure == nil else { return }
        remember(photo)
        do throws(OperatorError) {
            let shot = try await deliver(photo)
            bursts.running[number]?.shots.append(Outcome.Shot(photo: photo.withoutData(), delivered: shot.delivered?.withoutData(),
                                                              hookEnding: shot.hookEnding))
        } catch {
            bursts.running[number]?.failure = error
        }
    }

    /// Delivers a photo, reports it, and runs its hook.
    func deliver(_ photo: Photo) async throws(OperatorError) -> Outcome.Shot {
        if !photo.thumbnailData.isEmpty { corner = photo.thumbnailData }
        delivered += 1
        let written = try await deliver(DeliveryItem(photo, albums: albums + runAlbums.filter { !albums.contains($0) }), number: delivered)
        if let id = written?.libraryPhoto?.id {
            // Only shots a composition may still name are remembered: memory stays flat however long a run is.
            let composable = Set(cells.map(\.captureID) + (heldComposition?.shots ?? []))
            libraryIDs = libraryIDs.filter { composable.contains($0.key) }
            if composable.contains(photo.captureID) { libraryIDs[photo.captureID] = id }
        }
        guard let written, let hook = delivery.hook else {
            return Outcome.Shot(photo: photo, delivered: written, hookEnding: nil)
        }
        let ending: Hook.Ending
        do {
            ending = try await hook.run(for: written)
        } catch {
            throw .delivery(error)
        }
        if ending != .exited(0) { eventBroadcast.send(.hookFailed(path: written.path, ending)) }
        return Outcome.Shot(photo: photo, delivered: written, hookEnding: ending)
    }

    /// Writes a picture and reports it; `nil` when it has nowhere to go. A processing photo is
    /// reported once final, and what is delivered after it is reported after it.
    private func deliver(_ item: DeliveryItem, number: Int, composed: Bool = false) async throws(OperatorError) -> Delivered? {
        let written: Delivered?
        let (device, compositionCopy) = (device, compositionCopy)
        do {
            written = try await delivery.run { (delivery) throws(DeliveryError) -> Delivered? in
                guard composed else { return try delivery.deliver(item, number: number, device: device) }
                // A composed picture goes to the library and the composition's copy (else where
                // the next photo's copy would go), as a delivery of its own.
                let copy = compositionCopy ?? (delivery.library == nil ? delivery.copy : nil)
                return try PhotoDelivery(library: delivery.library, copy: copy, pictureCount: 1).deliver(item, number: number, device: device)
            }
        } catch {
            throw .delivery(error)
        }
        if let written, let finishing {
            if let photo = written.libraryPhoto, photo.isProcessing {
                await finishing.add(photo.id, item: item, device: (device.name, device.id))
                return written
            }
            if await finishing.reportsInTurn(written) { return written }
        }
        if let written, let report {
            do {
                try report(written)
            } catch {
                throw .report(error)
            }
        }
        return written
    }

    /// Composes the photos taken since the last composition, and delivers the picture or holds it.
    private func compose(layout: ShotLayout, quality: Int, albums: [String]) async throws(OperatorError) -> Outcome {
        let (data, size) = try await ShotComposition.compose(cells, layout: layout, quality: quality)
        let thumbnail = try await ShotComposition.thumbnail(of: data, size: size)
        let item = DeliveryItem(composed: data, thumbnail: thumbnail, width: size.width, height: size.height, capturedAt: cells[0].takenAt,
                                albums: albums)
        lastComposition = data
        let shots = cells.map(\.captureID)
        cells.removeAll()
        if holding {
            heldComposition = (item, data, shots)
            return .held(count: heldCount)
        }
        return .composed(try await deliverComposition(item, of: shots))
    }

    /// Delivers a composed picture of the shots captured as `shots` to the library (naming the
    /// shots there as its parts) and the composition's copy.
    func deliverComposition(_ item: DeliveryItem, of shots: [Int]) async throws(OperatorError) -> Delivered {
        var item = item
        item.parts = shots.compactMap { libraryIDs[$0] }
        guard let written = try await deliver(item, number: compositionCopy == nil ? delivered + 1 : 1, composed: true) else {
            throw .nowhereToKeep
        }
        return written
    }
}
