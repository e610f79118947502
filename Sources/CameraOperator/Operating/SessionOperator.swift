import CameraKit
import FoundationEssentials
import Glibc
import GStreamer
import JSON
import OperatorWire
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
/// let strip = try await booth.perform(.compose(layout: .strip, quality: 90, albums: [BoothPlan.album]))
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
    /// The camera the session runs on now.
    public private(set) var device: CaptureDevice
    /// Tells of each picture as it is written, before its hook runs: a `photo` event, then the front end's report.
    private let announcement: PhotoAnnouncement
    /// How many pictures were delivered; numbers each copy's name.
    private var delivered = 0
    /// The last photo taken: the next is of a newer frame.
    private var lastPhoto: Photo?
    /// The photos of the burst being taken, and the first failure to deliver one.
    private var burstTaken: (shots: [Outcome.Shot], failure: OperatorError?) = ([], nil)
    /// Admits flows one at a time for the stage, the camera and the settings (``Flow``).
    public nonisolated let gate = FlowGate()
    /// Each flow's shots and held pictures, by tray: ``looseTray`` for actions sent one by one,
    /// and one for each run while it runs.
    var trays: [Int: ShotTray] = [looseTray: ShotTray()]
    static let looseTray = 0
    private var trayCount = looseTray
    /// The tray of the run on the stage (a booth or a capture run), if one runs.
    var runTray: Int?
    /// Whether ``Action/endRun`` (or the stop) asked the run on the stage to end.
    var isEndingRun = false
    /// The booth's shot shown in its place, which ``Action/retake`` may still drop, and whether it was asked to.
    var retakeWindow: (shot: Int, asked: Bool)?
    /// Whether ``Action/stop`` stopped the session: a run started after it ends at once, and no review waits.
    var isStopped = false
    /// The last composed picture, for ``Action/showResult(seconds:)``.
    var lastComposition: [UInt8]?
    /// The countdown or wait that ``Action/cutShort`` ends (only a flow on the stage waits so).
    var countdown: Task<Void, any Error>?
    /// The thumbnail of the last photo delivered, which the preview's corner shows.
    var corner: [UInt8]?
    /// The review waiting for a verdict, its number, and the timer that answers it unanswered.
    var review: (number: Int, verdict: CheckedContinuation<Verdict?, Never>, timer: Task<Void, Never>?)?
    var reviews = 0
    /// The picture shown over the whole preview now, and what it is.
    public internal(set) var shownPicture: (kind: ShownPicture, jpeg: [UInt8])?
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
    /// that failed, a picture written or printed) and to the camera (lost, back, switched), from
    /// now on: the one stream every front end relays. Any number of readers may each have one;
    /// each may fall 256 events behind before its oldest are dropped. They end with ``endEvents()``.
    public nonisolated func events() -> AsyncStream<OperatorEvent> {
        eventBroadcast.subscribe()
    }

    /// Tells every reader of ``events()`` an event of one's own (an output's `motion`), as every
    /// front end relays the operator's: `--json` prints it, `/api/events` sends it, a fleet node
    /// publishes it, `{"event": NAME, …fields, "version": 1}`.
    ///
    /// - Throws: ``OperatorError/reservedEventName(_:)`` when `name` is one of the vocabulary's own
    ///   (``EventRecord/isOwnName(_:)``) or empty.
    public nonisolated func tell(_ name: String, _ fields: [String: JSONValue] = [:]) throws(OperatorError) {
        guard !name.isEmpty, !EventRecord.isOwnName(name) else { throw .reservedEventName(name) }
        eventBroadcast.send(.custom(name: name, fields: fields))
    }

    /// An operator for a session running on `device`, delivering photos through `delivery` (into
    /// `albums`) and composed pictures to its library and `compositionCopy`. Without a library
    /// or `compositionCopy`, a composed picture goes where the next photo's copy would.
    ///
    /// Each picture, as soon as it is written and before its hook runs, is told as a `photo` event
    /// on ``events()`` (with its SHA-256 with `checksums`, every photo then delivered final, and
    /// its `url` under `downloadBase`),
    /// then to `report` (a command line prints its path then), on the thread that wrote it, never
    /// on the operator's actor nor Swift's shared threads; what `report` throws fails the action. Photos asking for
    /// deferred processing (``PhotoSettings/defersHEVCProcessing``) are finished later when the
    /// library is their one destination, unless `defersProcessing` is false.
    ///
    /// Countdowns, pictures shown for a time and reviews' time-outs wait on `clock` (a test's own
    /// clock makes their time its to drive).
    public init(camera: any OperatedCamera, delivery: sending PhotoDelivery, device: CaptureDevice,
                albums: [String] = [], compositionCopy: PhotoDelivery.Target? = nil, defersProcessing: Bool = true,
                checksums: Bool = false, downloadBase: (@Sendable () -> String)? = nil,
                clock: any Clock<Duration> = ContinuousClock(), report: (@Sendable (Delivered) throws -> Void)? = nil) {
        self.camera = camera
        self.clock = clock
        let broadcast = eventBroadcast
        // What happens to the camera is told in the order it happens, among the operator's own events.
        camera.observeEvents { [weak broadcast] event in
            if let told = OperatorEvent(event) { broadcast?.send(told) }
        }
        let announcement = PhotoAnnouncement(checksums: checksums, downloadBase: downloadBase, tell: { broadcast.send($0) }, report: report)
        self.announcement = announcement
        self.albums = albums
        self.delivery = DeliveryLane(delivery)
        self.device = device
        self.compositionCopy = compositionCopy
        let links = self.delivery.guestLinks
        // A photo told with its checksum is delivered final: one finished later would be told
        // from its proxy's frame, whose bytes are not the file's.
        let finishing = defersProcessing && !checksums ? self.delivery.libraryFolder.map {
            PhotoFinishing(folder: $0, links: links, report: announcement.announce) { broadcast.send($0) }
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

    /// Does what the action asks. Flows that share the stage, the camera or the settings are
    /// admitted one at a time by ``gate`` (``Flow`` says which wait for their turn and which are
    /// refused); answers to a running flow (``Action/cutShort``, ``Action/decide(_:)``,
    /// ``Action/endRun``, a paused preview or movie, ``Action/stop``) are taken at once.
    ///
    /// - Throws: ``OperatorError``: the camera or encoder failed, a picture could not be written,
    ///   or the stage is held by another flow (``OperatorError/busy(_:)``).
    public func perform(_ action: Action) async throws(OperatorError) -> Outcome {
        do {
            return try await act(action)
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

    private func act(_ action: Action) async throws -> Outcome {
        let loose = Self.looseTray
        switch action {
        case .takePhoto(let settings):
            return try await takePhoto(settings, into: loose)
        case .takePhotoNear(let instant, let tolerance, var settings):
            // A fleet's synchronized photo waits for no turn: its frame is the one nearest its
            // instant, which no queue may make it miss, and it holds nothing while it waits.
            settings.defersHEVCProcessing = defers(settings)
            let photo = try await capture { [camera] () throws(CaptureError) in
                try await camera.capture(settings, nearest: instant, tolerance: tolerance)
            }
            camera.showShutter()
            remember(photo, in: loose)
            return try await take([photo], into: loose)
        case .burst(let count, var settings):
            settings.defersHEVCProcessing = defers(settings)
            return try await gate.admitting(.burst) { () throws(OperatorError) in
                camera.showShutter()
                guard trays[loose]?.holding != true else {
                    let photos = try await capture { [camera] () throws(CaptureError) in try await camera.captureBurst(count: count, settings) }
                    photos.forEach { remember($0, in: loose) }
                    return try await take(photos, into: loose)
                }
                return try await burst(count: count, settings)
            }
        case .countdown(let seconds):
            return try await gate.admitting(.countdown) { .countdownEnded(early: await count(down: seconds)) }
        case .showResult(let seconds):
            return try await gate.admitting(.showing) { () throws(OperatorError) in
                guard let lastComposition else { throw OperatorError.nothingToCompose }
                return .resultShown(early: await show(lastComposition, as: .result, for: seconds))
            }
        case .showShots(let slots, let layout, let seconds):
            return try await gate.admitting(.showing) { () throws(OperatorError) in
                .shotsShown(early: try await showShots(slots: slots, layout: layout, seconds: seconds, of: loose))
            }
        case .capture(let plan):
            guard plan.count > 1 || plan.countdown > 0 || plan.review != nil else { return try await takePhoto(plan.settings, into: loose) }
            return try await gate.admitting(.capture) { () throws(OperatorError) in try await runCapture(plan) }
        case .booth(let plan):
            return try await gate.admitting(.booth) { () throws(OperatorError) in try await runBooth(plan) }
        case .sampleScreenColor:
            return try await gate.admitting(.imageChange) { () throws(OperatorError) in
                .screenColor(try await capture { [camera] () throws(CaptureError) in try await camera.sampleScreenColor() })
            }
        case .attract(let plan):
            return try await gate.admitting(.showing) { await attract(plan) }
        case .endRun:
            guard runTray != nil else { return .runEnded(false) }
            isEndingRun = true
            countdown?.cancel()
            return .runEnded(true)
        case .holdForReview:
            hold(loose)
            return .held(count: trays[loose]?.heldCount ?? 0)
        case .review(let plan):
            return try await gate.admitting(.review) { () throws(OperatorError) in try await reviewHeld(plan, of: loose) }
        case .decide(let verdict):
            return .decided(decide(verdict))
        case .cutShort:
            countdown?.cancel()
            return .cut(ended: countdown != nil)
        case .retake:
            guard let window = retakeWindow, !window.asked else { return .retaking(false) }
            retakeWindow?.asked = true
            countdown?.cancel()
            return .retaking(true)
        case .switchCamera(let next):
            return try await gate.admitting(.cameraSwitch) { () throws(OperatorError) in try await switchCamera(to: next) }
        case .nextCamera:
            return try await gate.admitting(.cameraSwitch) { () throws(OperatorError) in
                // The camera after the one running when this switch's turn came (two presses: two cameras on).
                let current = device
                // Listing the cameras runs programs (pw-dump): off the actor and Swift's shared threads.
                guard let next = await DeviceDiscovery.lane.run({ Self.camera(after: current) }) else { return .noOtherCamera }
                return try await switchCamera(to: next)
            }
        case .pausePreview, .resumePreview:
            if case .pausePreview = action { return .previewPaused(camera.pausePreview(true)) }
            return .previewPaused(camera.pausePreview(false))
        case .changeImage(let image):
            return try await act(.adjustImage { _ in image })
        case .adjustImage(let change):
            return try await gate.admitting(.imageChange) { () throws(OperatorError) in
                let image = change(await camera.image)
                _ = try await capture { [camera] () throws(CaptureError) in try await camera.changeImage(to: image) }
                return .imageChanged(image)
            }
        case .compose(let layout, let quality, let albums):
            return try await compose(layout: layout, quality: quality, albums: albums, of: loose).outcome
        case .startRecording(let settings):
            return try await gate.admitting(.movie) { () throws(OperatorError) in try await startRecording(settings) }
        case .pauseRecording, .resumeRecording:
            guard movie != nil else { throw OperatorError.notRecording }
            if case .pauseRecording = action { return .recordingPaused(camera.pauseRecording(true)) }
            return .recordingPaused(camera.pauseRecording(false))
        case .stopRecording:
            // The movie ended in its turn is the one waited for, whatever starts after it.
            let keeping = try await gate.admitting(.movie) { () throws(OperatorError) in
                guard let movie else { throw OperatorError.notRecording }
                camera.endRecording()
                return movie.keeping
            }
            return .movie(try await keeping.value.get())
        case .stop:
            // A run on the stage ends: no more shots, and a review still to come is not waited for.
            (isStopped, isEndingRun) = (true, true)
            countdown?.cancel()
            _ = answerReview(nil)
            if movie != nil {
                camera.endRecording()
                _ = try? await movieKept()
            }
            await camera.stop()
            return .stopped
        }
    }

    /// What the camera does, its failure an operator's.
    func capture<T>(_ body: () async throws(CaptureError) -> T) async throws(OperatorError) -> T {
        do {
            return try await body()
        } catch {
            throw .capture(error)
        }
    }

    /// Switches the session to `next` (in the camera's turn); nothing to do when it runs on it already.
    private func switchCamera(to next: CaptureDevice) async throws(OperatorError) -> Outcome {
        guard next.id != device.id else { return .switched(to: next) }
        _ = try await capture { [camera] () throws(CaptureError) in try await camera.switchDevice(to: next) }
        device = next
        return .switched(to: next)
    }

    /// The camera after `current` in the list of cameras, wrapping round; `nil` when it is the only one.
    private static func camera(after current: CaptureDevice) -> CaptureDevice? {
        guard let cameras = try? DeviceDiscovery.devices(), cameras.count > 1 else { return nil }
        let index = cameras.firstIndex { $0.id == current.id } ?? -1
        return cameras[(index + 1) % cameras.count]
    }

    /// A tray for a run's shots, going into `albums`.
    func openTray(albums: [String]) -> Int {
        trayCount += 1
        trays[trayCount] = ShotTray(albums: albums)
        (runTray, isEndingRun) = (trayCount, isStopped)
        return trayCount
    }

    /// A run's tray is done with: what it still holds is dropped.
    func closeTray(_ tray: Int) {
        trays[tray] = nil
        if runTray == tray { runTray = nil }
    }

    /// Takes a photo into `tray` once the camera's turn comes: delivered, or held for the tray's review.
    func takePhoto(_ settings: PhotoSettings, into tray: Int) async throws(OperatorError) -> Outcome {
        try await take([try await shoot(settings, into: tray)], into: tray)
    }

    /// Takes a photo once the camera's turn comes, remembered in `tray` but not yet delivered.
    func shoot(_ settings: PhotoSettings, into tray: Int) async throws(OperatorError) -> Photo {
        var settings = settings
        settings.defersHEVCProcessing = defers(settings)
        return try await gate.admitting(.photo) { () throws(OperatorError) in
            camera.showShutter()
            let photo = try await capture { [camera, lastPhoto] () throws(CaptureError) in try await camera.capture(settings, after: lastPhoto) }
            remember(photo, in: tray)
            return photo
        }
    }

    /// Photos just taken into `tray` (and remembered there): delivered into its albums, or held
    /// while its review is to come.
    func take(_ photos: [Photo], into tray: Int) async throws(OperatorError) -> Outcome {
        if trays[tray]?.holding == true {
            trays[tray]?.held += photos
            return .held(count: trays[tray]?.heldCount ?? 0)
        }
        var shots: [Outcome.Shot] = []
        for photo in photos { shots.append(try await deliver(photo, from: tray)) }
        return .photos(shots)
    }

    /// The last photo: the next is of a newer frame; shown in the preview's corner, and among the
    /// cells `tray`'s next composition is made of.
    private func remember(_ photo: Photo, in tray: Int) {
        lastPhoto = photo
        if !photo.thumbnailData.isEmpty { camera.showLastPhoto(photo.thumbnailData) }
        trays[tray]?.remember(photo)
    }

    /// Holds what `tray` takes and composes for its review.
    func hold(_ tray: Int) {
        if trays[tray]?.holding == false { trays[tray]?.compositionBeforeHold = lastComposition }
        trays[tray]?.holding = true
    }

    /// A burst delivered as it is taken: each photo is delivered once encoded, and only what is
    /// known of it is kept after (its file is where delivery put it), so a burst of any length
    /// runs in the session's burst memory budget. Frames let pass while the budget was full are
    /// told as ``OperatorEvent/burstSkipped(frames:)``. A delivery that fails ends the burst's
    /// deliveries and fails the action once the burst is over. One burst runs at a time (the
    /// camera's turn).
    private func burst(count: Int, _ settings: PhotoSettings) async throws(OperatorError) -> Outcome {
        burstTaken = ([], nil)
        defer { burstTaken = ([], nil) }
        let summary = try await capture { [camera] () throws(CaptureError) in
            try await camera.captureBurst(count: count, settings) { [self] photo in
                await deliverBurstPhoto(photo)
            }
        }
        let (shots, failure) = burstTaken
        if !summary.skippedFrames.isEmpty { eventBroadcast.send(.burstSkipped(frames: summary.skippedFrames)) }
        if let failure { throw failure }
        return .photos(shots.sorted { $0.photo.captureID < $1.photo.captureID })
    }

    private func deliverBurstPhoto(_ photo: Photo) async {
        guard burstTaken.failure == nil else { return }
        remember(photo, in: Self.looseTray)
        do throws(OperatorError) {
            let shot = try await deliver(photo, from: Self.looseTray)
            burstTaken.shots.append(Outcome.Shot(photo: photo.withoutData(), delivered: shot.delivered?.withoutData(), hookEnding: shot.hookEnding))
        } catch {
            burstTaken.failure = error
        }
    }

    /// Delivers a photo of `tray` into its albums, reports it, and runs its hook.
    func deliver(_ photo: Photo, from tray: Int) async throws(OperatorError) -> Outcome.Shot {
        if !photo.thumbnailData.isEmpty { corner = photo.thumbnailData }
        delivered += 1
        let extra = trays[tray]?.albums ?? []
        let written = try await deliver(DeliveryItem(photo, albums: albums + extra.filter { !albums.contains($0) }), number: delivered)
        if let id = written?.libraryPhoto?.id { trays[tray]?.noteLibraryID(id, of: photo.captureID) }
        // Kept in the library, its RAW file too: a DSLR may now delete them from its card. A copy
        // alone (or standard output) keeps no RAW file, so the card keeps both.
        if let kept = written?.libraryPhoto, photo.cameraRaw == nil || kept.rawPath != nil { await photo.releaseCameraFiles() }
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
        if let written {
            // Told on the delivery's lane, in the order photos were written: the front end may
            // write to a pipe (the command line), or the photo be hashed (a fleet node), neither
            // of which may hold the operator's actor.
            try await delivery.run { [announcement] _ throws(OperatorError) in
                do {
                    try announcement.announce(written)
                } catch {
                    throw .report(error)
                }
            }
        }
        return written
    }

    /// Composes the shots `tray` took since its last composition, taken out of it at once (a
    /// composition asked for meanwhile finds none), and delivers the picture or holds it. The
    /// outcome, and the composed picture.
    func compose(layout: ShotLayout, quality: Int, albums: [String], of tray: Int) async throws(OperatorError) -> (outcome: Outcome, picture: [UInt8]) {
        guard let cells = trays[tray]?.cells, let lastShot = cells.map(\.takenAt).max() else { throw .nothingToCompose }
        trays[tray]?.cells = []
        let data: [UInt8], thumbnail: [UInt8], size: (width: Int, height: Int)
        do throws(OperatorError) {
            (data, size) = try await ShotComposition.compose(cells, layout: layout, quality: quality)
            thumbnail = try await ShotComposition.thumbnail(of: data, size: size)
        } catch {
            trays[tray]?.cells.insert(contentsOf: cells, at: 0)  // still there for the next try
            throw error
        }
        // Dated when it is made, so it sorts above its own shots (never below the last of them).
        var item = DeliveryItem(composed: data, thumbnail: thumbnail, width: size.width, height: size.height,
                                capturedAt: max(Date(), lastShot), albums: albums)
        lastComposition = data
        if trays[tray]?.holding == true {
            trays[tray]?.heldComposition = (item, data, cells.map(\.captureID))
            return (.held(count: trays[tray]?.heldCount ?? 0), data)
        }
        item.parts = cells.compactMap(\.libraryID)
        return (.composed(try await deliverComposition(item)), data)
    }

    /// Delivers a composed picture (naming its shots in the library as its parts) to the library
    /// and the composition's copy.
    func deliverComposition(_ item: DeliveryItem) async throws(OperatorError) -> Delivered {
        guard let written = try await deliver(item, number: compositionCopy == nil ? delivered + 1 : 1, composed: true) else {
            throw .nowhereToKeep
        }
        return written
    }
}
