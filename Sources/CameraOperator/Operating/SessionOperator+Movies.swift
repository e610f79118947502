import CameraKit
import FoundationEssentials
import Glibc
import HEIF
import PhotoLibrary

/// Movies: recorded into the library's `recordings/`, kept beside the photos once they end.
extension SessionOperator {
    /// Starts a movie; a task waits for its end (asked, or by itself) and keeps it.
    func startRecording(_ settings: MovieSettings) async throws(OperatorError) -> Outcome {
        guard movie == nil else { throw .alreadyRecording }
        let startedAt = Date()
        let begun: PhotoLibrary.Recording?
        do {
            begun = try await delivery.run { (delivery) throws(LibraryError) in try delivery.library?.beginRecording(capturedAt: startedAt) }
        } catch {
            throw .delivery(.library(error))
        }
        guard let recording = begun else { throw .nowhereToRecord }
        do {
            try await camera.startRecording(to: recording.path, settings)
        } catch {
            recording.abandon()
            throw .capture(error)
        }
        movies += 1
        let number = movies
        movie = (number, Task { await self.keepWhenEnded(recording, startedAt: startedAt, number: number) })
        eventBroadcast.send(.recordingStarted(path: recording.path))
        return .recordingStarted(path: recording.path)
    }

    /// Waits until the movie being recorded is kept (it was asked to end, or ended by itself).
    ///
    /// - Throws: ``OperatorError/notRecording`` when none is being recorded, or the failure that
    ///   kept the movie from being kept or cut it short (what was whole of it is kept).
    public func movieKept() async throws(OperatorError) -> KeptMovie {
        guard let movie else { throw .notRecording }
        return try await movie.keeping.value.get()
    }

    /// Whether a movie is being recorded.
    public var isRecording: Bool { movie != nil }

    private func keepWhenEnded(_ recording: PhotoLibrary.Recording, startedAt: Date, number: Int) async -> Result<KeptMovie, OperatorError> {
        await camera.recordingEnded()
        let result = await keep(recording, startedAt: startedAt)
        if movie?.number == number { movie = nil }
        switch result {
        case .success(let kept):
            eventBroadcast.send(.movieKept(kept.libraryMovie))
            if let failure = kept.recorded.failure { eventBroadcast.send(.movieFailed(reason: failure.description)) }
        case .failure(let error):
            eventBroadcast.send(.movieFailed(reason: "\(error)"))
        }
        return result
    }

    /// Ends the movie's file and keeps it in the library, with its first frame as its thumbnail.
    private func keep(_ recording: PhotoLibrary.Recording, startedAt: Date) async -> Result<KeptMovie, OperatorError> {
        let recorded: RecordedMovie
        do {
            recorded = try await camera.stopRecording()
        } catch {
            return .failure(.capture(error))
        }
        let (device, albums) = (device, albums)
        let added: (movie: LibraryPhoto, frames: Int?)?
        do {
            added = try await delivery.run { (delivery) throws(LibraryError) -> (movie: LibraryPhoto, frames: Int?)? in
                guard let library = delivery.library else { return nil }
                let kept = try library.addMovie(recording, thumbnail: recorded.thumbnail, capturedAt: startedAt, device: device.name, albums: albums)
                return (kept, (try? MovieFile(path: kept.path))?.frameCount)
            }
        } catch {
            return .failure(recorded.failure.map { .capture($0) } ?? .delivery(.library(error)))
        }
        guard let added else { return .failure(.nowhereToRecord) }
        return .success(KeptMovie(libraryMovie: added.movie, recorded: recorded, frameCount: added.frames ?? recorded.frameCount,
                                  device: (device.name, device.id)))
    }

    /// Makes a booth's clip of its shots and keeps it in the library (the first shot its thumbnail),
    /// as a part of the booth's `picture` there.
    func keepAnimation(of shots: [[UInt8]], style: ShotAnimation.Style, albums: [String], partOf picture: Int64?) async throws(OperatorError) {
        guard let folder = delivery.libraryFolder, let first = shots.first else { return }
        let clip: ShotAnimation.Clip
        do {
            clip = try await ShotAnimation.make(shots, style: style, folder: folder)
        } catch {
            throw .capture(error)
        }
        let clipPhoto = NewPhoto(data: clip.data, thumbnail: first, codec: clip.codec, width: clip.width, height: clip.height,
                                 capturedAt: Date(), device: device.name, albums: albums, duration: clip.duration)
        do {
            guard let kept = try await delivery.run({ (delivery) throws(LibraryError) -> LibraryPhoto? in
                guard let library = delivery.library else { return nil }
                let clip = try library.add(clipPhoto)
                if let picture { try library.addParts([clip.id], to: picture) }
                return clip
            }) else { return }
            lastAnimation = kept
            eventBroadcast.send(.animationKept(kept))
        } catch {
            throw .delivery(.library(error))
        }
    }
}
