import CGPhoto2
import Formatting
import FoundationEssentials
import GPhoto2
import GStreamer
import ImageMetadata
import Synchronization

/// A DSLR or mirrorless camera as a session's camera: its live view pictures fed into the
/// session's graph (or, for a camera without live view, its last photo, again and again), and its
/// own shutter fired for photos, each file downloaded as the camera wrote it.
///
/// The camera is used one call at a time (libgphoto2's camera keeps its own queue): a photo waits
/// for the live view picture in hand, and live view waits while a photo is taken and downloaded.
final class GPhotoSource: Sendable {
    let camera: any TetheredCamera
    /// Whether photos are deleted from the camera's card once downloaded.
    let deletesFromCard: Bool
    /// How long a shot may take before it is given up.
    let shotTimeout: Duration
    private struct State {
        var feeding: Task<Void, Never>?
        /// The picture pushed while there is no live view: the last photo, else a dark frame, at
        /// the session's size.
        var still: [UInt8]?
        var size = (width: 1024, height: 680)
        var hasLiveView = true
        /// A shot is under way: its files are told by the camera's events, which nothing else reads meanwhile.
        var shooting = false
    }
    private let state = Mutex(State())
    /// Shots, one at a time.
    private let shots = Turnstile()

    private init(camera: any TetheredCamera, deletesFromCard: Bool, shotTimeout: Duration) {
        (self.camera, self.deletesFromCard, self.shotTimeout) = (camera, deletesFromCard, shotTimeout)
    }

    /// Opens the camera `device` names, through `driver`.
    ///
    /// - Throws: ``CaptureError`` saying why it cannot be opened (libgphoto2 missing, the camera
    ///   gone, its port held by another program).
    static func open(_ device: CaptureDevice, with driver: any TetheredCameraDriver, deletingFromCard: Bool,
                     shotTimeout: Duration) async throws(CaptureError) -> GPhotoSource {
        guard case .gphoto2(let model, let port) = device.kind else {
            throw CaptureError(.deviceNotFound, "\(device.name) is not a DSLR or mirrorless camera")
        }
        do {
            return GPhotoSource(camera: try await driver.open(model: model, port: port), deletesFromCard: deletingFromCard, shotTimeout: shotTimeout)
        } catch {
            throw CaptureError(error)
        }
    }

    /// Starts feeding `source` (the session's camera app source): live view pictures as fast as
    /// the camera gives them; without live view (`noLiveView` is told once), the last photo (a
    /// dark frame before the first), five times a second, asking the camera every two seconds for
    /// what it has to say (which drains its events between shots). A camera that stops answering
    /// is `lost`.
    func feed(_ source: AppSource, size: (width: Int, height: Int), noLiveView: @escaping @Sendable () -> Void,
              lost: @escaping @Sendable (CaptureError) -> Void) {
        state.withLock { $0.size = size }
        let task = Task { [self] in
            var pushed = 0
            while !Task.isCancelled {
                let picture: [UInt8]
                if state.withLock({ $0.hasLiveView }) {
                    do throws(GPhotoError) {
                        picture = try await camera.preview()
                    } catch where error.code == GP_ERROR_NOT_SUPPORTED {
                        state.withLock { $0.hasLiveView = false }
                        noLiveView()
                        continue
                    } catch {
                        if !Task.isCancelled { lost(CaptureError(error)) }
                        return
                    }
                } else {
                    if pushed % 10 == 0, !state.withLock({ $0.shooting }) {
                        do throws(GPhotoError) {
                            _ = try await camera.newFiles(quietFor: 0, atMost: 1000)
                        } catch {
                            if !Task.isCancelled { lost(CaptureError(error)) }
                            return
                        }
                    }
                    picture = await still()
                    try? await Task.sleep(for: .milliseconds(200))
                }
                pushed += 1
                // Nothing to show (a dark frame that could not be made) is not pushed: the decoder would fail on it.
                guard !Task.isCancelled, !picture.isEmpty, let buffer = try? picture.withUnsafeBytes({ try Buffer(copying: $0) }) else { continue }
                try? source.push(buffer)  // never blocks: the source drops its oldest when full
            }
        }
        state.withLock { $0.feeding = task }
    }

    /// What is shown without live view: the last photo, else a dark frame, at the session's size.
    private func still() async -> [UInt8] {
        let (still, size) = state.withLock { ($0.still, $0.size) }
        if let still { return still }
        let rows = (size.width + 3) / 4 * 4  // GStreamer's GRAY8 rows are padded to four bytes
        let dark = (try? await ScaledJPEG.make(from: [UInt8](repeating: 24, count: rows * size.height),
                                               caps: "video/x-raw,format=GRAY8,width=\(size.width),height=\(size.height),framerate=0/1",
                                               decoder: "", width: size.width, height: size.height)) ?? []
        state.withLock { $0.still = $0.still ?? dark }
        return dark
    }

    /// Fires the camera's shutter and downloads the photo as the camera wrote it, with the RAW file
    /// a camera set to RAW+JPEG wrote beside it (deleted from the card, when asked to, only once
    /// the photo is kept: ``Photo/releaseCameraFiles()``); the photo is shown, without live view,
    /// until the next.
    ///
    /// - Throws: ``CaptureError`` when the camera does not take it within ``shotTimeout`` (a photo
    ///   it writes later stays on its card), writes no JPEG (its RAW file alone stays on the
    ///   card), or a file cannot be downloaded.
    func takePhoto() async throws(CaptureError) -> CameraShot {
        // One shot at a time: another's firing between this one's and its files would take them.
        try await shots.pass { () throws(CaptureError) -> CameraShot in
            state.withLock { $0.shooting = true }
            defer { state.withLock { $0.shooting = false } }
            do throws(GPhotoError) {
                return try await shoot()
            } catch {
                throw CaptureError(error)
            }
        }
    }

    private func shoot() async throws(GPhotoError) -> CameraShot {
        let (first, firedAt) = try await fired()
        let files = [first] + (try await companions(of: first))
        guard let jpegFile = files.first(where: { RawFileKind.of($0.name) == nil }) else {
            throw GPhotoError(code: GP_ERROR_NOT_SUPPORTED, "the camera wrote \(first.name) and no JPEG beside it, so camctl kept nothing "
                + "(it stays on the card); set the camera's image format to JPEG or RAW+JPEG")
        }
        let bytes = try await camera.download(jpegFile, limit: 512 * 1_048_576)
        let rawFile = files.first { RawFileKind.of($0.name) != nil }
        var raw: CameraFile?
        if let rawFile { raw = CameraFile(name: rawFile.name, data: try await camera.download(rawFile, limit: 512 * 1_048_576)) }
        let screen = await screenSized(bytes)
        let camera = self.camera
        let removal: (@Sendable () async -> Void)? = deletesFromCard ? { @Sendable in
            for file in [jpegFile, rawFile].compactMap({ $0 }) { try? await camera.delete(file) }
        } : nil
        return CameraShot(jpeg: bytes, raw: raw, removeFromCard: removal, firedAt: firedAt, screenSized: screen)
    }

    /// The other file of a RAW+JPEG pair, which the camera tells of after naming one: after a RAW
    /// file, listened for until its JPEG comes (up to 3 s: it is needed); after a JPEG, until the
    /// camera has been quiet for 0.1 s (a camera set to JPEG alone tells of nothing more). Files of
    /// other names are left on the card.
    private func companions(of first: GPhotoFile) async throws(GPhotoError) -> [GPhotoFile] {
        let pairs = { (file: GPhotoFile) in file != first && Self.stem(of: file.name) == Self.stem(of: first.name) }
        guard RawFileKind.of(first.name) != nil else { return try await camera.newFiles(quietFor: 100, atMost: 1000).filter(pairs) }
        let deadline = ContinuousClock.now + .seconds(3)
        var found: [GPhotoFile] = []
        while found.isEmpty, case let left = deadline - ContinuousClock.now, left > .zero {
            let milliseconds = Int32(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000)
            found = try await camera.newFiles(quietFor: 100, atMost: max(1, milliseconds)).filter(pairs)
        }
        return found
    }

    /// The photo at the session's size, its shape kept (the one full-size decode a shot costs:
    /// its thumbnail is made from this); without live view, the picture shown until the next.
    private func screenSized(_ photo: [UInt8]) async -> [UInt8]? {
        let (hasLiveView, size) = state.withLock { ($0.hasLiveView, $0.size) }
        guard let own = JPEGFile.dimensions(of: photo), own.width > 0, own.height > 0 else { return nil }
        let scale = min(1, Double(size.width) / Double(own.width), Double(size.height) / Double(own.height))
        let even = { (side: Int) in max(2, Int(Double(side) * scale) / 2 * 2) }
        guard let screen = try? await ScaledJPEG.make(from: photo, width: even(own.width), height: even(own.height)) else { return nil }
        if !hasLiveView { state.withLock { $0.still = screen } }
        return screen
    }

    /// A camera file's name without its extension: what the two files of a RAW+JPEG pair share.
    private static func stem(of name: String) -> Substring {
        name.lastIndex(of: ".").map { name[..<$0] } ?? name[...]
    }

    /// The file of a shot and when the shutter was fired, or a time-out once ``shotTimeout``
    /// passes first (the camera's call cannot be cancelled: it finishes on its own, and its file
    /// is left on the card).
    private func fired() async throws(GPhotoError) -> (GPhotoFile, firedAt: Date) {
        let answer = OnceAnswer<Result<GPhotoShot, GPhotoError>>()
        Task { [camera] in
            do throws(GPhotoError) {
                answer.give(.success(try await camera.capture()))
            } catch {
                answer.give(.failure(error))
            }
        }
        let deadline = Task { [shotTimeout] in
            guard (try? await Task.sleep(for: shotTimeout)) != nil else { return }
            let seconds = Double(shotTimeout.components.seconds) + Double(shotTimeout.components.attoseconds) / 1e18
            let within = seconds == 1 ? "1 second" : String(printf: "%g seconds", seconds)
            answer.give(.failure(GPhotoError(code: GP_ERROR_TIMEOUT, "the camera did not take the photo within \(within); "
                + "check that it is on and awake and that its autofocus finds something to focus on (or use manual focus)")))
        }
        let result = await answer.value
        deadline.cancel()
        let shot = try result.get()
        return (shot.file, Date(timeIntervalSince1970: shot.firedAt))
    }

    /// Stops feeding and closes the camera.
    func close() async {
        let feeding = state.withLock { state in
            defer { state.feeding = nil }
            return state.feeding
        }
        feeding?.cancel()
        await feeding?.value
        await camera.close()
    }
}
