import CameraKit
import PhotoLibrary

/// Finishes the library's photos taken with deferred processing, one at a time, oldest first:
/// reads each one's spooled frame, encodes its HEIC (``HEICFinisher``), and has the library put
/// it in place of the proxy. Photos left processing by a process that ended first are finished
/// too (``resume()``), after this process's own: those are told of as they are taken, and never
/// wait behind another run's. A spooled frame that cannot be read or encoded leaves the proxy as
/// the photo.
///
/// It keeps a library connection of its own, so finishing never waits for the operator's, used
/// on a lane of its own (``FinishingLibrary``).
public actor PhotoFinishing {
    /// A photo this process took to finish, with what to tell of it once final, or a picture
    /// delivered after photos still processing, to tell of after them.
    private enum Job {
        case finish(id: Int64, item: DeliveryItem, device: (name: String, id: String))
        case tell(Delivered)
    }

    private let library: FinishingLibrary
    private let finisher = HEICFinisher()
    /// How each final photo is told (the operator's ``PhotoAnnouncement``); `nil` where none is.
    private let report: (@Sendable (Delivered) throws -> Void)?
    /// The library's guests' links, a finished photo's told with it.
    private let links: GuestLinks?
    /// Tells of each photo finished, or left as its proxy.
    private let tell: @Sendable (OperatorEvent) -> Void
    /// This process's photos to finish and pictures to tell of, in the order they were taken.
    private var queue: [Job] = []
    /// Photos left processing by a process that ended first, finished when `queue` is empty.
    private var leftovers: [Int64] = []
    private var queued = Set<Int64>()
    private var worker: Task<Void, Never>?
    /// Whether a job of `queue` is under way (a photo of this process's being finished).
    private var workingOnQueue = false
    private var idle: [CheckedContinuation<Void, Never>] = []
    /// The first failure of `report` (standard output refused), for ``drain()`` to hand on.
    private var reportFailure: (any Error)?

    init(folder: String, links: GuestLinks? = nil, report: (@Sendable (Delivered) throws -> Void)?, tell: @escaping @Sendable (OperatorEvent) -> Void) {
        library = FinishingLibrary(folder: folder)
        (self.links, self.report) = (links, report)
        self.tell = tell
    }

    /// Finishes every photo of the library in `folder` that is still processing (left by a process
    /// that ended first), telling of each as ``OperatorEvent/processed(_:)`` or
    /// ``OperatorEvent/processingFailed(id:reason:)``; the stream ends when all are done.
    public static func finishAll(in folder: String) -> AsyncStream<OperatorEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: OperatorEvent.self)
        let finishing = PhotoFinishing(folder: folder, report: nil) { continuation.yield($0) }
        Task {
            await finishing.resume(whenSpooled: false)
            _ = await finishing.drain()
            await finishing.stop()
            continuation.finish()
        }
        return stream
    }

    /// Finishes a photo this process delivered as a proxy; `item` and `device` are what it was.
    /// It is finished before the photos other runs left, and told of once final.
    func add(_ id: Int64, item: DeliveryItem, device: (name: String, id: String)) {
        // Listed among those left by other runs when that listing came after its proxy.
        leftovers.removeAll { $0 == id }
        queued.insert(id)
        queue.append(.finish(id: id, item: item.withoutData(), device: device))
        startWorking()
    }

    /// Tells of a picture after the photos this process delivered before it, when some of those
    /// are still processing; returns false (nothing done) when none are.
    func reportsInTurn(_ delivered: Delivered) -> Bool {
        guard !queue.isEmpty || workingOnQueue else { return false }
        queue.append(.tell(delivered.withoutData()))
        return true
    }

    /// Finishes every photo the library still has processing. With `whenSpooled`, the library is
    /// opened only when its spool holds a photo (so a start pays nothing when there is none).
    func resume(whenSpooled: Bool = true) async {
        if whenSpooled, await !library.hasSpooledPhotos() { return }
        guard let photos = try? await library.run({ library throws(LibraryError) in try library.processingPhotos() }) else { return }
        for photo in photos where queued.insert(photo.id).inserted { leftovers.append(photo.id) }
        startWorking()
    }

    /// Returns once every photo given so far is finished, with the first failure of telling of
    /// one (taken, so it is handed on once).
    func drain() async -> (any Error)? {
        if worker != nil { await withCheckedContinuation { idle.append($0) } }
        defer { reportFailure = nil }
        return reportFailure
    }

    /// Stops the encoders (after ``drain()``, or leaving what is left to the next process).
    func stop() async {
        worker?.cancel()
        await finisher.stop()
    }

    private func startWorking() {
        guard worker == nil, !queue.isEmpty || !leftovers.isEmpty else { return }
        worker = Task { await work() }
    }

    private func work() async {
        while !Task.isCancelled {
            if !queue.isEmpty {
                switch queue.removeFirst() {
                case .finish(let id, let item, let device):
                    workingOnQueue = true
                    await finish(id, item: item, device: device)
                    workingOnQueue = false
                    queued.remove(id)
                case .tell(let delivered):
                    tell(delivered)
                }
            } else if !leftovers.isEmpty {
                let id = leftovers.removeFirst()
                await finish(id, item: nil, device: nil)
                queued.remove(id)
            } else {
                break
            }
        }
        worker = nil
        for waiter in idle { waiter.resume() }
        idle.removeAll()
    }

    private func finish(_ id: Int64, item: DeliveryItem?, device: (name: String, id: String)?) async {
        do {
            let photo = try await library.run { library throws(LibraryError) in try library.photo(id: id) }
            guard photo.isProcessing else {
                // Finished meanwhile (as a leftover of another run, or by another process).
                if photo.codec == "hevc", let item, let device { tellFinal(photo, item: item, device: device) }
                return
            }
            let final: LibraryPhoto
            do {
                let spooled = try await library.run { library throws(LibraryError) in
                    try library.pendingData(of: photo, limit: PendingHEVC.maximumSpoolBytes)
                }
                let heic = try await finisher.heicFile(of: PendingHEVC(spooled: spooled))
                final = try await library.run { library throws(LibraryError) in try library.finish(id: id, data: heic, codec: "hevc") }
            } catch {
                // A photo deleted or finished by another process meanwhile is nothing to tell of.
                guard (try? await library.run({ library throws(LibraryError) in try library.photo(id: id) }))?.isProcessing == true else { return }
                // What cannot be made final from its frame stays as its proxy, a whole picture.
                _ = try await library.run { library throws(LibraryError) in try library.settle(id: id) }
                tell(.processingFailed(id: id, reason: Self.sentence(error)))
                return
            }
            tell(.processed(final))
            // This process's own photos are told of as it tells of every photo it delivers.
            if let item, let device {
                tellFinal(final, item: item, device: device)
            }
        } catch {
            tell(.processingFailed(id: id, reason: Self.sentence(error)))
        }
    }

    private func tellFinal(_ final: LibraryPhoto, item: DeliveryItem, device: (name: String, id: String)) {
        tell(Delivered(path: final.path, libraryPhoto: final, copy: nil,
                       item: item.finished(codec: .hevc, byteCount: final.byteCount), device: device, guestLink: links?.path(for: final.id)))
    }

    /// Reports a picture; after a failure, nothing more (the front end's output is gone).
    private func tell(_ delivered: Delivered) {
        guard reportFailure == nil else { return }
        do {
            try report?(delivered)
        } catch {
            reportFailure = error
        }
    }

    private static func sentence(_ error: any Error) -> String {
        switch error {
        case let error as CaptureError: error.message
        case let error as LibraryError: error.message
        default: "\(error)"
        }
    }
}
