import CameraKit
import Foundation

/// Drives a running capture session and delivers its photos: every front end (keys, signals,
/// description files, the network) asks with an ``Action`` and renders the ``Outcome``.
///
/// ```swift
/// let booth = SessionOperator(session: session, delivery: delivery, device: camera)
/// for _ in 1...4 {
///     _ = try await booth.perform(.countdown(seconds: 3))
///     _ = try await booth.perform(.takePhoto(settings))
/// }
/// let strip = try await booth.perform(.compose(columns: 1, quality: 90, albums: ["booth"]))
/// ```
public actor SessionOperator {
    /// The session it drives.
    public nonisolated let session: CaptureSession
    private let delivery: PhotoDelivery
    /// Where composed pictures are copied, besides the library.
    private let compositionCopy: PhotoDelivery.Target?
    /// The albums photos go into.
    private let albums: [String]
    private var device: CaptureDevice
    /// Tells the front end of each picture as it is written, before its hook runs.
    private let report: (@Sendable (Delivered) throws -> Void)?
    /// How many pictures were delivered; numbers each copy's name.
    private var delivered = 0
    /// The last photo taken: the next is of a newer frame.
    private var lastPhoto: Photo?
    /// The shots taken since the last composition (at most ``ShotComposition/maximumShots``).
    private var cells: [ShotComposition.Cell] = []
    /// The last composed picture, for ``Action/showResult(seconds:)``.
    private var lastComposition: [UInt8]?
    /// The countdown or wait that ``Action/cutShort`` ends.
    private var countdown: Task<Void, any Error>?
    private let eventContinuation: AsyncStream<OperatorEvent>.Continuation
    /// What happens while actions run (a countdown's seconds); one reader.
    public nonisolated let events: AsyncStream<OperatorEvent>

    /// An operator for a session running on `device`, delivering photos through `delivery` (into
    /// `albums`) and composed pictures to its library and `compositionCopy`. Without a library
    /// or `compositionCopy`, a composed picture goes where the next photo's copy would.
    ///
    /// `report` is told of each picture as soon as it is written, before its hook runs (a
    /// command line prints its path then); what it throws fails the action.
    public init(session: CaptureSession, delivery: sending PhotoDelivery, device: CaptureDevice,
                albums: [String] = [], compositionCopy: PhotoDelivery.Target? = nil,
                report: (@Sendable (Delivered) throws -> Void)? = nil) {
        self.session = session
        self.report = report
        self.albums = albums
        self.delivery = delivery
        self.device = device
        self.compositionCopy = compositionCopy
        (events, eventContinuation) = AsyncStream.makeStream(of: OperatorEvent.self, bufferingPolicy: .bufferingNewest(16))
    }

    /// Does what the action asks.
    ///
    /// - Throws: ``OperatorError``: the camera or encoder failed, or a picture could not be written.
    public func perform(_ action: Action) async throws(OperatorError) -> Outcome {
        do {
            switch action {
            case .takePhoto(let settings):
                session.previewOutput.showShutter()
                let photo = try await session.photoOutput.capture(settings, after: lastPhoto)
                return .photos([try await keep(photo)])
            case .burst(let count, let settings):
                session.previewOutput.showShutter()
                var shots: [Outcome.Shot] = []
                for photo in try await session.photoOutput.captureBurst(count: count, settings) { shots.append(try await keep(photo)) }
                return .photos(shots)
            case .countdown(let seconds):
                return .countdownEnded(early: await count(down: seconds))
            case .showResult(let seconds):
                guard let lastComposition else { throw OperatorError.nothingToCompose }
                session.previewOutput.showWhole(lastComposition)
                return .resultShown(early: await wait(seconds))
            case .cutShort:
                countdown?.cancel()
                return .cut(ended: countdown != nil)
            case .switchCamera(let camera):
                try await session.switchDevice(to: camera)
                device = camera
                return .switched(to: camera)
            case .nextCamera:
                guard let next = Self.camera(after: device) else { return .noOtherCamera }
                return try await perform(.switchCamera(to: next))
            case .pausePreview, .resumePreview:
                if case .pausePreview = action { session.previewOutput.pause() } else { session.previewOutput.resume() }
                return .previewPaused(session.previewOutput.isPaused)
            case .changeImage(let image):
                try await session.changeImage(to: image)
                return .imageChanged(image)
            case .compose(let columns, let quality, let albums):
                return .composed(try await compose(columns: columns, quality: quality, albums: albums))
            case .stop:
                countdown?.cancel()
                await session.stop()
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

    /// Delivers a photo, reports it, runs its hook, and keeps it for the next composition.
    private func keep(_ photo: Photo) async throws(OperatorError) -> Outcome.Shot {
        lastPhoto = photo
        if !photo.thumbnailData.isEmpty { session.previewOutput.showLastPhoto(photo.thumbnailData) }
        cells.append(ShotComposition.Cell(photo))
        if cells.count > ShotComposition.maximumShots { cells.removeFirst() }
        delivered += 1
        let written = try deliver(DeliveryItem(photo, albums: albums), number: delivered, through: delivery)
        guard let written, let hook = delivery.hook else {
            return Outcome.Shot(photo: photo, delivered: written, hookEnding: nil)
        }
        do {
            return Outcome.Shot(photo: photo, delivered: written, hookEnding: try await hook.run(for: written))
        } catch {
            throw .delivery(error)
        }
    }

    /// Writes a picture and reports it; `nil` when it has nowhere to go.
    private func deliver(_ item: DeliveryItem, number: Int, through delivery: PhotoDelivery) throws(OperatorError) -> Delivered? {
        let written: Delivered?
        do {
            written = try delivery.deliver(item, number: number, device: device)
        } catch {
            throw .delivery(error)
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

    /// Waits `seconds`; `true` when cut short.
    private func wait(_ seconds: Double) async -> Bool {
        guard seconds > 0 else { return false }
        return await cancellable(Task { try await Task.sleep(for: .seconds(seconds)) })
    }

    /// Waits for a countdown or a wait that ``Action/cutShort`` can cancel; `true` when it was.
    private func cancellable(_ running: Task<Void, any Error>) async -> Bool {
        countdown = running
        defer { countdown = nil }
        return (try? await running.value) == nil
    }

    /// Counts down, a second at a time, on the preview and as events; `true` when cut short.
    private func count(down seconds: Double) async -> Bool {
        guard seconds > 0 else { return false }
        let preview = session.previewOutput, events = eventContinuation
        return await cancellable(Task {
            defer { preview.overlayText = nil }
            let end = ContinuousClock.now + .seconds(seconds)
            while ContinuousClock.now < end {
                let left = end - ContinuousClock.now
                let shown = Int((Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18).rounded(.up))
                preview.overlayText = "\(shown)"
                events.yield(.countdown(secondsLeft: shown))
                try await Task.sleep(for: left - .seconds(shown - 1))  // to the next whole second
            }
        })
    }

    /// Composes the photos taken since the last composition, and delivers the picture.
    private func compose(columns: Int, quality: Int, albums: [String]) async throws(OperatorError) -> Delivered {
        let (data, layout) = try await ShotComposition.compose(cells, columns: columns, quality: quality)
        let item = DeliveryItem(composed: data, width: layout.width, height: layout.height, capturedAt: cells[0].takenAt, albums: albums)
        lastComposition = data
        cells.removeAll()
        let copy = compositionCopy ?? (delivery.library == nil ? delivery.copy : nil)
        let composition: PhotoDelivery
        do {
            composition = try PhotoDelivery(library: delivery.library, copy: copy, pictureCount: 1)
        } catch {
            throw .delivery(error)
        }
        guard let written = try deliver(item, number: compositionCopy == nil ? delivered + 1 : 1, through: composition) else {
            throw .nowhereToKeep
        }
        return written
    }
}
