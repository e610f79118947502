import FleetControl
import Formatting
import FoundationEssentials
import JSON

/// A collection's counts and what it tells as it goes, one report at a time however many photos
/// come at once: each photo kept (a line, or a JSON object), and its progress, photos and bytes
/// against those listed so far, on a terminal's one rewritten line or as `collect_progress`
/// JSON lines, at most a few times a second and once at the end.
actor CollectionTally {
    /// How a collection tells what it does.
    enum Reporting: Sendable {
        /// Each photo and the progress on standard output, for a person or (`json`) a program.
        case console(json: Bool)
        /// Only the progress, to a watcher of its own (a rig page's).
        case progress(@Sendable (CollectionProgress) -> Void)
    }

    private let reporting: Reporting
    private var progress = CollectionProgress()
    private let started = ContinuousClock.now
    private var lastShown: ContinuousClock.Instant?
    /// Where each photo is kept, by ``key(_:_:)``.
    private(set) var kept: [String: String] = [:]

    /// What a kept photo is found by: its node and its node's name for it (`n3/20261207-….jpg`).
    static func key(_ node: String, _ fileName: String) -> String {
        node + "/" + fileName
    }

    /// How often progress is told.
    static let interval = Duration.milliseconds(250)

    init(reporting: Reporting) {
        self.reporting = reporting
    }

    /// Photos collected and photos that were there already.
    var counts: (collected: Int, had: Int) { (progress.collected, progress.had) }

    /// A node listed `count` more photos.
    func listed(_ count: Int) {
        progress.listed += count
    }

    /// A photo kept now or found there already: told (when kept) and counted.
    ///
    /// - Throws: ``CommandFailure`` when standard output refuses the report.
    func kept(_ photo: FleetPhoto, _ result: PhotoCollector.Result) throws(CommandFailure) {
        switch result {
        case .collected(let path), .had(let path):
            kept[Self.key(photo.node, photo.fileName)] = path
        }
        switch result {
        case .collected(let path):
            progress.collected += 1
            progress.bytes += photo.byteCount
            guard case .console(let printsJSON) = reporting else { break }
            if printsJSON {
                try Console.json(["node": .string(photo.node), "id": .integer(photo.id), "result": .string("collected"), "path": .string(path),
                                  "sha256": .string(photo.sha256),
                                  "captured_at_us": .integer(Int64((photo.capturedAt.timeIntervalSince1970 * 1e6).rounded()))] as JSONValue)
            } else {
                try Console.result("\(photo.node)  \(photo.id)  \(path)")
            }
        case .had:
            progress.had += 1
        }
        try show(final: false)
    }

    /// Tells the progress once more, as it ends.
    func finish() {
        try? show(final: true)
    }

    private func show(final: Bool) throws(CommandFailure) {
        let now = ContinuousClock.now
        guard final || lastShown.map({ now - $0 >= Self.interval }) ?? true else { return }
        lastShown = now
        let elapsed = max(0.001, Double((now - started).components.seconds) + Double((now - started).components.attoseconds) / 1e18)
        progress.seconds = (elapsed * 1000).rounded() / 1000
        let megabytes = Double(progress.bytes) / 1_048_576
        switch reporting {
        case .progress(let watch):
            watch(progress)
        case .console(json: true):
            try Console.json(["event": .string("collect_progress"), "collected": .integer(Int64(progress.collected)), "had": .integer(Int64(progress.had)),
                              "listed": .integer(Int64(progress.listed)), "bytes": .integer(Int64(progress.bytes)),
                              "seconds": .number(progress.seconds)] as JSONValue)
        case .console(json: false):
            Console.progress(String(printf: "collecting: %d of %d photos listed (%d there already), %.1f MB at %.1f MB/s",
                                    progress.collected + progress.had, progress.listed, progress.had, megabytes, megabytes / elapsed),
                             replacing: !final)
        }
    }
}
