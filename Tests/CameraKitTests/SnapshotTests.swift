@testable import CameraKit
import Synchronization
import TestSupport
import Testing

@Suite("Snapshots: a held frame encoded once however many ask for it", .hangGuard(minutes: 2))
struct SnapshotTests {
    /// An encode that waits until it is let go, counting how often it ran.
    final class HeldEncode: Sendable {
        let runs = Atomic<Int>(0)
        private let started: AsyncStream<Void>.Continuation
        let starts: AsyncStream<Void>
        private let release: AsyncStream<Void>.Continuation
        private let releases: AsyncStream<Void>

        init() {
            (starts, started) = AsyncStream.makeStream()
            (releases, release) = AsyncStream.makeStream()
        }

        func encode(_ bytes: [UInt8], failing: Bool = false) async throws(CaptureError) -> [UInt8] {
            runs.add(1, ordering: .relaxed)
            started.yield()
            for await _ in releases { break }
            if failing { throw CaptureError(.pipeline, "the encoder failed") }
            return bytes
        }

        func letGo() { release.yield() }
    }

    @Test("Requests for the same frame and quality share one encode, while it runs and after; another frame, quality or size is encoded anew")
    func sharedByFrameAndQuality() async throws {
        let recent = RecentSnapshot()
        let held = HeldEncode()
        let key = RecentSnapshot.Key(frame: 7, quality: 85, width: nil)
        async let first = recent.snapshot(of: key) { () async throws(CaptureError) in try await held.encode([1]) }
        for await _ in held.starts { break }
        async let second = recent.snapshot(of: key) { () async throws(CaptureError) in try await held.encode([2]) }
        held.letGo()
        #expect(try await first == [1])
        #expect(try await second == [1])
        #expect(try await recent.snapshot(of: key) { () async throws(CaptureError) in try await held.encode([3]) } == [1])
        #expect(held.runs.load(ordering: .relaxed) == 1)

        held.letGo()
        #expect(try await recent.snapshot(of: .init(frame: 8, quality: 85, width: nil)) { () async throws(CaptureError) in try await held.encode([4]) } == [4])
        held.letGo()
        #expect(try await recent.snapshot(of: .init(frame: 8, quality: 60, width: nil)) { () async throws(CaptureError) in try await held.encode([5]) } == [5])
        held.letGo()
        #expect(try await recent.snapshot(of: .init(frame: 8, quality: 60, width: 320)) { () async throws(CaptureError) in try await held.encode([6]) } == [6])
        #expect(held.runs.load(ordering: .relaxed) == 4)
    }

    @Test("A failed encode is not kept: the next request for the frame encodes it again")
    func failureForgotten() async throws {
        let recent = RecentSnapshot()
        let held = HeldEncode()
        let key = RecentSnapshot.Key(frame: 1, quality: 85, width: nil)
        held.letGo()
        await #expect(throws: CaptureError.self) {
            try await recent.snapshot(of: key) { () async throws(CaptureError) in try await held.encode([1], failing: true) }
        }
        held.letGo()
        #expect(try await recent.snapshot(of: key) { () async throws(CaptureError) in try await held.encode([2]) } == [2])
        #expect(held.runs.load(ordering: .relaxed) == 2)
    }

    @Test("A session encodes each frame it holds once for any number of snapshots, in parallel or one after another; another quality is encoded anew")
    func sessionEncodesHeldFrameOnce() async throws {
        // A frame a second: the nine snapshots are of one frame, or two (moving pictures, so two
        // frames' snapshots differ).
        let session = CaptureSession(configuration: try CaptureSessionTests.configuration("320x240@1"))
        try await session.start()
        try #require(await until { (try? session.photoOutput.feed.latestNumbered()) != nil }, "the camera's first frame comes")
        let encodes = { session.photoOutput.runningEncoders?.encoders.jpegEncodeCount ?? 0 }
        let snapshots = try await withThrowingTaskGroup(of: [UInt8].self) { group in
            for _ in 0..<8 { group.addTask { try await session.photoOutput.snapshot() } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let again = try await session.photoOutput.snapshot()
        #expect(snapshots.allSatisfy { $0.starts(with: [0xFF, 0xD8]) })
        #expect(encodes() == Set(snapshots + [again]).count, "one encode for each frame the snapshots were of")
        let before = encodes()
        _ = try await session.photoOutput.snapshot(quality: 50)
        #expect(encodes() == before + 1)
        await session.stop()
    }
}
