import FleetControl
import JSON
import Synchronization

/// What a rig page shows beside the nodes' own statuses: the captures made from it, what each
/// node answered, and the collection under way or last done. It admits one capture and one
/// collection at a time: a second is refused while the first runs, never interleaved with it.
final class RigBoard: Sendable {
    /// A capture made from the page, and the nodes known when it was sent: a node offline then
    /// missed it as surely as one that did not answer.
    struct Capture: Sendable {
        let capture: SynchronizedCapture
        let known: [String]

        /// Whether `node` was meant to take a photo and has none.
        func missed(by node: String) -> Bool {
            guard known.contains(node) else { return false }
            if case .photo? = capture.answers[node] { return false }
            return true
        }
    }

    /// A collection's state.
    enum Collection: Sendable {
        case idle
        case running(CollectionProgress)
        /// Done: what it came to, and what kept photos from it (empty when nothing did).
        case finished(CollectionProgress, problems: [String])
    }

    private struct State {
        var captures: [Capture] = []
        var capturing = false
        var collection = Collection.idle
    }

    private let state = Mutex(State())
    /// The captures remembered, the oldest forgotten first.
    static let remembered = 100

    /// Admits a capture; `false` while another runs.
    func beginCapture() -> Bool {
        state.withLock { state in
            guard !state.capturing else { return false }
            state.capturing = true
            return true
        }
    }

    /// Ends the capture admitted, keeping what it came to when it was sent.
    func endCapture(_ capture: Capture?) {
        state.withLock { state in
            state.capturing = false
            if let capture { state.captures = Array((state.captures + [capture]).suffix(Self.remembered)) }
        }
    }

    /// Admits a collection; `false` while another runs.
    func beginCollection() -> Bool {
        state.withLock { state in
            if case .running = state.collection { return false }
            state.collection = .running(CollectionProgress())
            return true
        }
    }

    /// How far the collection has come.
    func collectionProgressed(_ progress: CollectionProgress) {
        state.withLock { state in
            if case .running = state.collection { state.collection = .running(progress) }
        }
    }

    /// Ends the collection, with what kept photos from it.
    func endCollection(problems: [String]) {
        state.withLock { state in
            guard case .running(let progress) = state.collection else { return }
            state.collection = .finished(progress, problems: problems)
        }
    }

    /// The page's picture of the rig: every node with its state, last photo and missed captures,
    /// the latest captures, and the collection.
    func record(fleet: String, nodes: [FleetWatch.Node]) -> JSONValue {
        let state = state.withLock { $0 }
        let nodeRecords = nodes.map { node -> JSONValue in
            let missed = state.captures.filter { $0.missed(by: node.name) }.map { JSONValue.integer(Self.microseconds($0.capture.instant)) }
            var last: JSONValue = .null
            for entry in state.captures.reversed() {
                if case .photo(let capturedAt, let path, _)? = entry.capture.answers[node.name] {
                    last = ["captured_at_us": .integer(Self.microseconds(capturedAt)), "url": .string(path)]
                    break
                }
            }
            return ["node": .string(node.name), "state": .string(node.isOnline ? "online" : "offline"), "device": .string(node.device),
                    "url": .string(node.url), "tile_url": node.tileURL.map(JSONValue.string) ?? .null,
                    "photos": node.photos.map { .integer(Int64($0)) } ?? .null, "free_bytes": node.freeBytes.map(JSONValue.integer) ?? .null,
                    "clock_synchronized": node.clockSynchronized.map(JSONValue.bool) ?? .null, "last_photo": last, "missed": .array(missed)]
        }
        return ["fleet": .string(fleet), "nodes": .array(nodeRecords), "capturing": .bool(state.capturing),
                "captures": .array(state.captures.suffix(10).reversed().map(Self.record)), "collection": Self.record(state.collection)]
    }

    /// A capture as the page and the API tell it: each node's photo and its distance from the
    /// instant, the skew, and the nodes that refused, did not answer or were offline.
    static func record(_ entry: Capture) -> JSONValue {
        let capture = entry.capture
        let photos = capture.photos.map { photo -> JSONValue in
            ["node": .string(photo.node), "offset_ms": .number((photo.capturedAt - capture.instant) * 1000), "url": .string(photo.path)]
        }
        let refused = capture.nodes.compactMap { node -> JSONValue? in
            guard case .refused(let message)? = capture.answers[node] else { return nil }
            return ["node": .string(node), "message": .string(message)]
        }
        let offline = entry.known.filter { !capture.nodes.contains($0) }
        return ["at_us": .integer(microseconds(capture.instant)), "skew_ms": .number(capture.skewMilliseconds), "photos": .array(photos),
                "refused": .array(refused), "silent": .array(capture.missing.silent.map(JSONValue.string)),
                "offline": .array(offline.map(JSONValue.string))]
    }

    private static func record(_ collection: Collection) -> JSONValue {
        func counts(_ state: String, _ progress: CollectionProgress, problems: [String] = []) -> JSONValue {
            ["state": .string(state), "collected": .integer(Int64(progress.collected)), "had": .integer(Int64(progress.had)),
             "listed": .integer(Int64(progress.listed)), "bytes": .integer(Int64(progress.bytes)), "seconds": .number(progress.seconds),
             "problems": .array(problems.map(JSONValue.string))]
        }
        switch collection {
        case .idle: return ["state": "idle"]
        case .running(let progress): return counts("running", progress)
        case .finished(let progress, let problems): return counts("finished", progress, problems: problems)
        }
    }

    private static func microseconds(_ seconds: Double) -> Int64 {
        Int64((seconds * 1e6).rounded())
    }
}
