import FleetControl
import FoundationEssentials
import Glibc
import JSON
import MQTTClient
import PhotoLibrary

/// `camctl fleet collect`: asks each online node for its library, a page at a time, and keeps
/// every photo the destination does not have yet.
struct FleetCollection {
    let fleet: String
    /// How long a node has to answer each page.
    let timeout: Double
    let printsJSON: Bool

    /// The photos asked of a node at once.
    static let pageSize = 50

    /// How long one node's photos may take to collect; the rest wait for the next collection,
    /// which goes on where this one stopped. A node that lists without end cannot hold it.
    static let nodeDeadline = Duration.seconds(600)

    /// How many of a node's photos in a row may fail before the node is given up for this collection.
    static let failuresInARow = 10

    func collect(from nodes: [FleetWatch.Node], into destination: FleetCommand.Destination, client: MQTTClient,
                 watch: FleetWatch) async throws(CommandFailure) {
        guard !nodes.isEmpty else {
            throw CommandFailure("the broker keeps no status of any node of the fleet \(fleet); nothing was collected (is the fleet's name right?)",
                                 exitCode: .unavailable)
        }
        let collector = PhotoCollector(into: try open(destination), fleet: fleet)
        var (collected, had) = (0, 0)
        var problems: [String] = nodes.filter { !$0.isOnline }.map { "\($0.name) is offline, so its photos were not collected" }
        for node in nodes where node.isOnline {
            var after: Int64 = 0
            var failed = 0
            let deadline = ContinuousClock.now + Self.nodeDeadline
            pages: while true {
                guard ContinuousClock.now < deadline else {
                    problems.append("\(node.name)'s photos took longer than \(Self.nodeDeadline.components.seconds / 60) minutes to collect, so the rest were not collected")
                    break pages
                }
                switch try await page(of: node.name, after: after, client: client, watch: watch) {
                case .listing(let photos, let more)?:
                    // Each page goes on from the last; one that does not would be asked for again and again.
                    guard photos.allSatisfy({ $0.id > after }) else {
                        problems.append("\(node.name) listed photos out of order, so some of its photos were not collected")
                        break pages
                    }
                    for photo in photos {
                        after = max(after, photo.id)
                        let result: PhotoCollector.Result
                        do throws(CollectionError) {
                            result = try await collector.collect(photo)
                        } catch {
                            guard error.concernsOnlyThisPhoto else { throw CommandFailure(error.description, exitCode: .cannotCreate) }
                            problems.append(error.description)
                            failed += 1
                            guard failed < Self.failuresInARow else {
                                problems.append("\(failed) photos of \(node.name) in a row could not be had, so its other photos were not collected")
                                break pages
                            }
                            continue
                        }
                        failed = 0
                        switch result {
                        case .collected(let path):
                            collected += 1
                            try report(photo, "collected", path)
                        case .had:
                            had += 1
                        }
                    }
                    guard more, !photos.isEmpty else { break pages }
                case .refused(let message)?:
                    problems.append("\(node.name) refused to list its photos: \(message)")
                    break pages
                case nil, .photo?:
                    problems.append("\(node.name) did not answer in time, so some of its photos were not collected")
                    break pages
                }
            }
        }
        if printsJSON {
            try Console.json(["fleet": .string(fleet), "collected": .integer(Int64(collected)), "had": .integer(Int64(had)),
                              "problems": .array(problems.map(JSONValue.string))] as JSONValue)
        } else {
            try Console.result("collected \(collected) new photo\(collected == 1 ? "" : "s") from the fleet \(fleet); \(had) were there already")
        }
        guard problems.isEmpty else {
            throw CommandFailure(problems.joined(separator: "; ") + "; run camctl fleet collect again to get the rest", exitCode: .unavailable)
        }
    }

    /// A node's answer to a request for the photos after `after`.
    private func page(of node: String, after: Int64, client: MQTTClient, watch: FleetWatch) async throws(CommandFailure) -> FleetWatch.Answer? {
        let command = NodeCommand.photos(after: after, limit: Self.pageSize, lifetime: timeout)
        guard client.publish("camctl/\(fleet)/\(node)/command", command.payload) else {
            throw CommandFailure("the command could not be sent to the broker", exitCode: .unavailable)
        }
        return await watch.answer(to: command.id, from: node, by: .now + .seconds(timeout))
    }

    private func open(_ destination: FleetCommand.Destination) throws(CommandFailure) -> PhotoCollector.Destination {
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

    /// Tells of a photo kept: a line, or a JSON object.
    private func report(_ photo: FleetPhoto, _ what: String, _ path: String) throws(CommandFailure) {
        if printsJSON {
            try Console.json(["node": .string(photo.node), "id": .integer(photo.id), "result": .string(what), "path": .string(path),
                              "sha256": .string(photo.sha256),
                              "captured_at_us": .integer(Int64((photo.capturedAt.timeIntervalSince1970 * 1e6).rounded()))] as JSONValue)
        } else {
            try Console.result("\(photo.node)  \(photo.id)  \(path)")
        }
    }
}
