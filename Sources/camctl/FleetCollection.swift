import FleetControl
import FoundationEssentials
import Glibc
import GStreamer
import JSON
import MQTTClient
import PhotoLibrary
import Synchronization

/// `camctl fleet collect`: asks each online node for its library, a page at a time, and keeps
/// every photo the destination does not have yet. The nodes are collected side by side, their
/// photos downloaded at most `concurrency` at once in all (and a few at once from one node), so
/// a rig's photos come at the speed of its network rather than one after another.
struct FleetCollection {
    let fleet: String
    /// How long a node has to answer each page.
    let timeout: Double
    /// How it tells what it does.
    var reporting: CollectionTally.Reporting
    /// Photos downloaded at once, from all nodes together (`--concurrency`).
    var concurrency = Self.defaultConcurrency

    static let defaultConcurrency = 16
    /// Photos downloaded at once from one node, well within its server's connections for one address.
    static let perNode = 4

    /// The photos asked of a node at once.
    static let pageSize = 50

    /// How long one node's photos may take to collect, counted from its first download (not its
    /// wait for a turn among the others); the rest wait for the next collection, which goes on
    /// where this one stopped. A node that lists without end cannot hold it.
    static let nodeDeadline = Duration.seconds(600)

    /// How many of a node's photos in a row may fail before the node is given up for this collection.
    static let failuresInARow = 10

    /// Collects the online nodes' photos; returns where each is kept (``CollectionTally/key(_:_:)``),
    /// and what kept some from being collected (an offline node, a photo that could not be had),
    /// for the caller to throw once it has used those kept.
    ///
    /// - Throws: ``CommandFailure`` when the destination cannot be written, or standard output refuses a report.
    func collect(from nodes: [FleetWatch.Node], into destination: FleetCommand.Destination, client: MQTTClient,
                 watch: FleetWatch) async throws(CommandFailure) -> (kept: [String: String], unfinished: CommandFailure?) {
        guard !nodes.isEmpty else {
            throw CommandFailure("the broker keeps no status of any node of the fleet \(fleet); nothing was collected (is the fleet's name right?)",
                                 exitCode: .unavailable)
        }
        // A library destination is opened (and mended) where libraries are opened.
        let collector = PhotoCollector(into: try await PhotoSaving.onLane { () throws(CommandFailure) in try open(destination) }, fleet: fleet)
        let tally = CollectionTally(reporting: reporting)
        let slots = Turnstile(permits: concurrency)
        var problems: [String] = nodes.filter { !$0.isOnline }.map { "\($0.name) is offline, so its photos were not collected" }
        let outcomes = await withTaskGroup(of: Result<[String], CommandFailure>.self) { group in
            for node in nodes where node.isOnline {
                group.addTask {
                    do throws(CommandFailure) {
                        return .success(try await collect(node, with: collector, slots: slots, tally: tally, client: client, watch: watch))
                    } catch {
                        return .failure(error)
                    }
                }
            }
            var outcomes: [Result<[String], CommandFailure>] = []
            for await outcome in group {
                // The destination failing ends the whole collection: no other photo could be kept either.
                if case .failure = outcome { group.cancelAll() }
                outcomes.append(outcome)
            }
            return outcomes
        }
        await tally.finish()
        for case .failure(let failure) in outcomes { throw failure }
        for case .success(let nodeProblems) in outcomes { problems += nodeProblems }
        let (collected, had) = await tally.counts
        switch reporting {
        case .console(json: true):
            try Console.json(["fleet": .string(fleet), "collected": .integer(Int64(collected)), "had": .integer(Int64(had)),
                              "problems": .array(problems.map(JSONValue.string))] as JSONValue)
        case .console(json: false):
            try Console.result("collected \(collected) new photo\(collected == 1 ? "" : "s") from the fleet \(fleet); \(had) were there already")
        case .progress:
            break
        }
        let kept = await tally.kept
        guard problems.isEmpty else {
            return (kept, CommandFailure(problems.joined(separator: "; ") + "; run camctl fleet collect again to get the rest", exitCode: .unavailable))
        }
        return (kept, nil)
    }

    /// One node's photos, its pages listed one after another and each page's photos downloaded a
    /// few at once; returns what kept some of them from being collected.
    ///
    /// - Throws: ``CommandFailure`` when the destination cannot be written, or standard output refuses a report.
    private func collect(_ node: FleetWatch.Node, with collector: PhotoCollector, slots: Turnstile, tally: CollectionTally,
                         client: MQTTClient, watch: FleetWatch) async throws(CommandFailure) -> [String] {
        var after: Int64 = 0
        var failed = 0
        var problems: [String] = []
        let clock = NodeClock()
        while true {
            guard !Task.isCancelled else { return problems }
            guard clock.elapsed < Self.nodeDeadline else {
                return problems + ["\(node.name)'s photos took longer than \(Self.nodeDeadline.components.seconds / 60) minutes to collect, so the rest were not collected"]
            }
            switch try await page(of: node.name, after: after, client: client, watch: watch) {
            case .listing(let photos, let more)?:
                // Each page goes on from the last; one that does not would be asked for again and again.
                guard photos.allSatisfy({ $0.id > after }) else {
                    return problems + ["\(node.name) listed photos out of order, so some of its photos were not collected"]
                }
                after = photos.map(\.id).max() ?? after
                await tally.listed(photos.count)
                // The page's photos in their order: a failure counts toward a run of them.
                for result in try await collectPage(photos, with: collector, slots: slots, tally: tally, clock: clock) {
                    guard let problem = result else {
                        failed = 0
                        continue
                    }
                    problems.append(problem)
                    failed += 1
                    guard failed < Self.failuresInARow else {
                        return problems + ["\(failed) photos of \(node.name) in a row could not be had, so its other photos were not collected"]
                    }
                }
                guard more, !photos.isEmpty else { return problems }
            case .refused(let message)?:
                return problems + ["\(node.name) refused to list its photos: \(message)"]
            case nil, .photo?:
                return problems + ["\(node.name) did not answer in time, so some of its photos were not collected"]
            }
        }
    }

    /// A page's photos collected, at most ``perNode`` at once and each within the fleet's slots;
    /// for each in the page's order, `nil` or what kept it from being collected.
    private func collectPage(_ photos: [FleetPhoto], with collector: PhotoCollector, slots: Turnstile,
                             tally: CollectionTally, clock: NodeClock) async throws(CommandFailure) -> [String?] {
        let outcomes = await withTaskGroup(of: (Int, Result<String?, CommandFailure>).self) { group in
            var next = 0
            var outcomes = [Result<String?, CommandFailure>?](repeating: nil, count: photos.count)
            func start() {
                guard next < photos.count else { return }
                guard !Task.isCancelled else { return }  // the collection is failing: no more is started
                let (index, photo) = (next, photos[next])
                next += 1
                group.addTask {
                    let result = await slots.pass { () async -> Result<PhotoCollector.Result, CollectionError> in
                        clock.start()
                        do throws(CollectionError) {
                            return .success(try await collector.collect(photo))
                        } catch {
                            return .failure(error)
                        }
                    }
                    switch result {
                    case .success(let kept):
                        do throws(CommandFailure) {
                            try await tally.kept(photo, kept)
                            return (index, .success(nil))
                        } catch {
                            return (index, .failure(error))
                        }
                    case .failure(let error) where error.concernsOnlyThisPhoto:
                        return (index, .success(error.description))
                    case .failure(let error):
                        return (index, .failure(CommandFailure(error.description, exitCode: .cannotCreate)))
                    }
                }
            }
            for _ in 0..<Self.perNode { start() }
            for await (index, outcome) in group {
                outcomes[index] = outcome
                if case .failure = outcome { group.cancelAll() } else { start() }
            }
            return outcomes.compactMap { $0 }
        }
        var problems: [String?] = []
        for outcome in outcomes {
            switch outcome {
            case .success(let problem): problems.append(problem)
            case .failure(let failure): throw failure
            }
        }
        return problems
    }

    /// A node's answer to a request for the photos after `after`.
    private func page(of node: String, after: Int64, client: MQTTClient, watch: FleetWatch) async throws(CommandFailure) -> FleetWatch.Answer? {
        let command = NodeCommand.photos(after: after, limit: Self.pageSize, lifetime: timeout)
        guard client.publish("camctl/\(fleet)/\(node)/command", command.payload) else {
            throw CommandFailure("the command could not be sent to the broker", exitCode: .unavailable)
        }
        return await watch.answer(to: command.id, from: node, by: .now + .seconds(timeout))
    }

    /// The destination, made when it is not there.
    func open(_ destination: FleetCommand.Destination) throws(CommandFailure) -> PhotoCollector.Destination {
        switch destination {
        case .folder(let folder):
            var isFolder = false
            if FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), !isFolder {
                throw CommandFailure("--into \(folder) is a file; name a folder to collect into", exitCode: .cannotCreate)
            }
            guard mkdir(folder, 0o755) == 0 || errno == EEXIST else {
                throw CommandFailure("\(folder) could not be made (\(String(cString: strerror(errno)))); name a folder you can write to", exitCode: .cannotCreate)
            }
            return .folder(folder)
        case .library(let folder):
            do {
                return .library(try PhotoLibrary(folder: folder))
            } catch {
                throw CommandFailure(error.message, exitCode: .cannotCreate)
            }
        }
    }
}

/// A node's time at collecting, from its first download (its turn among the other nodes' is not
/// its own time).
private final class NodeClock: Sendable {
    private let first = Mutex<ContinuousClock.Instant?>(nil)

    /// Starts the clock, the first time.
    func start() {
        first.withLock { $0 = $0 ?? .now }
    }

    /// The time since the first download; none before it.
    var elapsed: Duration {
        first.withLock { $0.map { .now - $0 } ?? .zero }
    }
}
