import CameraServer
import Checksums
import FleetControl
import Formatting
import FoundationEssentials
import Glibc
import HTTPServer
import JSON
import MQTTClient
import OperatorWire
import PhotoLibrary

/// `camctl fleet`: the controller of a fleet of `camctl serve --broker` nodes: which nodes there
/// are, a synchronized capture on all of them, and their photos collected in one place.
struct FleetCommand: Subcommand {
    static let name = "fleet"
    static let synopsis = """
        camctl fleet    list|capture|collect|serve --broker mqtt://HOST[:PORT][,HOST[:PORT]…] --fleet NAME [--nodes COUNT] [--at SECONDS]
                        [--timeout SECONDS] [--into DIR | --library DIR] [--concurrency N] [--bullet-time FILE] [--listen ADDR:PORT] [--json]
                        [--broker-user USER] [--broker-password-file FILE] [--broker-ca FILE]
        """
    static let summary = "list a fleet's nodes, take a synchronized photo on all of them, collect their photos, or serve the rig's page"
    static let help = """
        list      the nodes whose status the broker keeps: name, online or offline, camera, address,
                  whether its clock is synchronized
        capture   a photo on every online node of the frame its camera took nearest one instant,
                  --at seconds from now (1 by default); prints each node's frame instant and how far
                  it is from the asked one, then the skew between the nodes. A node that refuses, or
                  does not answer within --timeout seconds after the instant (10), is named, and camctl
                  exits 69. The command expires a second after the instant: a node that gets it late
                  never fires late. With --into or --library, the photos are then collected, and with
                  --bullet-time FILE (.mp4 or .gif) made into a clip in the nodes' order (n1, n2, …,
                  n10), swept there and back, a frame a node at 10 frames a second.
        collect   every photo of every online node's library that is not yet in the folder of --into
                  (a folder per node) or the library of --library (an album per node): each download is
                  checked against the size and SHA-256 its node reports, and kept durably; run it again
                  after an interruption and it goes on where it stopped. An offline node, or a photo
                  that could not be had, is named, and camctl exits 69; the rest are kept. The nodes
                  are collected side by side, --concurrency photos at once in all (16; 4 at most from
                  one node); a terminal is shown the progress (photos, megabytes and their rate), and
                  --json tells it as collect_progress objects between the photos'.
        serve     the rig's page on --listen (127.0.0.1:8090 by default), with --library DIR, where its
                  collections keep the photos and its access token is kept (as camctl serve's): every
                  node's live picture as a small tile, fetched by the browser from the node itself (so
                  the browser must reach the nodes' addresses); each node's state, photos, free disk,
                  last photo and missed captures; one shutter for the whole rig, a capture at a time of
                  day, and collection with its progress. The same token rules as camctl serve's.
        --nodes waits until that many nodes are online (nodes just started announce themselves in a
        moment), for --timeout seconds at most, then exits 69 naming how many came; without it the
        nodes online when the broker has told their statuses are taken.
        A node whose clock is not synchronized is warned of: its frame instants are only as good as its clock.
        --json prints one JSON object per node (or photo collected), then one for the fleet.
        """
    static let options: [ParsedArguments.Option] = [
        .init(name: "--broker", value: "URL"), .init(name: "--fleet", value: "NAME"), .init(name: "--nodes", value: "COUNT"),
        .init(name: "--at", value: "SECONDS"),
        .init(name: "--timeout", value: "SECONDS"), .init(name: "--json", value: nil),
        .init(name: "--into", value: "DIR"), .init(name: "--library", value: "DIR"), .init(name: "--concurrency", value: "N"),
        .init(name: "--bullet-time", value: "FILE"), .init(name: "--listen", value: "ADDR:PORT"),
        .init(name: "--broker-user", value: "USER"), .init(name: "--broker-password-file", value: "FILE"),
        .init(name: "--broker-ca", value: "FILE"),
    ]
    static let words = ["list", "capture", "collect", "serve"]

    enum Job {
        case list
        /// A synchronized capture, its photos then collected when a destination is given.
        case capture(collectingInto: Destination?)
        case collect(into: Destination)
        /// The rig's page, its collections kept in the library in `folder`.
        case serve(library: String, host: String, port: Int)
    }

    /// Where `collect` keeps photos.
    enum Destination {
        case folder(String)
        case library(String)
    }

    let job: Job
    let fleet: CameraServer.Fleet
    let delay: Double
    let timeout: Double
    /// The nodes to wait for before anything is done, when given.
    let awaitedNodes: Int?
    let printsJSON: Bool
    /// Photos downloaded at once while collecting (`--concurrency`).
    let concurrency: Int
    /// Where a capture's photos are made into a clip (`--bullet-time`).
    let bulletTime: BulletTime?

    init(_ arguments: ParsedArguments) throws(CommandFailure) {
        guard arguments.positionals.count == 1, let word = arguments.positionals.first, Self.words.contains(word) else {
            throw CommandFailure("camctl fleet takes list, capture or collect", exitCode: .usage)
        }
        let destination: Destination?
        switch (arguments.string("--into"), arguments.string("--library")) {
        case (let folder?, nil):
            // A folder of photos by node is no library's: the library's files are its own.
            guard !FileManager.default.fileExists(atPath: folder + "/library.sqlite") else {
                throw CommandFailure("\(folder) is a photo library; collect into it with --library \(folder), or name another folder with --into",
                                     exitCode: .usage)
            }
            destination = .folder(folder)
        case (nil, let folder?): destination = .library(folder)
        case (nil, nil): destination = nil
        default: throw CommandFailure("give either --into DIR or --library DIR, not both", exitCode: .usage)
        }
        switch (word, destination) {
        case ("collect", let destination?): job = .collect(into: destination)
        case ("collect", nil): throw CommandFailure("camctl fleet collect needs --into DIR or --library DIR", exitCode: .usage)
        case ("capture", _): job = .capture(collectingInto: destination)
        case ("serve", .library(let folder)?):
            let (host, port) = try ServeCommand.address(arguments.string("--listen") ?? "127.0.0.1:8090")
            job = .serve(library: folder, host: host, port: port)
        case ("serve", _): throw CommandFailure("camctl fleet serve needs --library DIR, where its collections keep the photos", exitCode: .usage)
        case (_, nil): job = .list
        default: throw CommandFailure("--into and --library go with camctl fleet capture or collect", exitCode: .usage)
        }
        if arguments.string("--listen") != nil, case .serve = job {} else if arguments.string("--listen") != nil {
            throw CommandFailure("--listen goes with camctl fleet serve", exitCode: .usage)
        }
        guard var fleet = try ServeCommand.fleet(arguments) else {
            throw CommandFailure("camctl fleet needs --broker mqtt://HOST[:PORT] and --fleet NAME", exitCode: .usage)
        }
        fleet.broker.clientID = "camctl-controller-\(fleet.name)-\(getpid())"
        self.fleet = fleet
        delay = try arguments.seconds("--at", in: 0.05...3600) ?? 1
        timeout = try arguments.seconds("--timeout", in: 0.5...3600) ?? 10
        awaitedNodes = try arguments.integer("--nodes", in: 1...10_000)
        printsJSON = arguments.flag("--json")
        concurrency = try arguments.integer("--concurrency", in: 1...256) ?? FleetCollection.defaultConcurrency
        bulletTime = try arguments.string("--bullet-time").map { path throws(CommandFailure) in try BulletTime(path) }
        if bulletTime != nil, case .capture(collectingInto: .some) = job {} else if bulletTime != nil {
            throw CommandFailure("--bullet-time goes with camctl fleet capture and --into DIR or --library DIR, which collect its photos", exitCode: .usage)
        }
    }

    func run() async throws(CommandFailure) {
        // Collected photos are checked against their SHA-256.
        switch job {
        case .list, .capture(collectingInto: nil): break
        case .capture, .collect, .serve:
            guard CryptoLibrary.isAvailable else { throw CommandFailure(CryptoLibrary.missing, exitCode: .unavailable) }
        }
        let watch = FleetWatch()
        let client: MQTTClient
        do {
            client = try MQTTClient(fleet.broker, onMessage: { watch.take($0) }, onConnection: { watch.connection($0, $1) })
        } catch {
            throw CommandFailure(error.description, exitCode: .unavailable)
        }
        defer { client.stop() }
        client.subscribe("camctl/\(fleet.name)/+/status")
        client.subscribe("camctl/\(fleet.name)/+/events")
        // Given several brokers, one that does not answer is left for the next after 5 s: they have --timeout.
        if let reason = await watch.connected(by: .now + .seconds(fleet.broker.otherBrokers.isEmpty ? min(timeout, 5) : timeout)) {
            throw CommandFailure("the broker at \(fleet.broker.host):\(fleet.broker.port) cannot be reached (\(reason)); check --broker and that the broker runs there",
                                 exitCode: .unavailable)
        }
        if case .serve(let folder, let host, let port) = job {
            return try await serve(folder: folder, host: host, port: port, client: client, watch: watch)
        }
        let nodes = try await nodesOnline(watch)
        for node in nodes where node.isOnline && node.clockSynchronized == false {
            Console.note("\(node.name)'s clock is not synchronized: its frame instants are only as good as its clock; run a time daemon (chrony, or linuxptp for a rig) on it")
        }
        switch job {
        case .list:
            for node in nodes {
                if printsJSON { try Console.json(node.record) } else { try Console.result(node.line.terminalSafe(limit: 500)) }  // a node's words, on one line
            }
        case .capture(let destination):
            let (photos, failure) = try await capture(on: nodes, client: client, watch: watch)
            if let destination {
                let (kept, unfinished) = try await FleetCollection(fleet: fleet.name, timeout: timeout, reporting: .console(json: printsJSON), concurrency: concurrency)
                    .collect(from: nodes, into: destination, client: client, watch: watch)
                // Made of what was kept, though other photos could not be had.
                try await bulletTime?.make(of: photos, kept: kept, printsJSON: printsJSON)
                if let unfinished, failure == nil { throw unfinished }
            }
            if let failure { throw failure }
        case .collect(let destination):
            let (_, unfinished) = try await FleetCollection(fleet: fleet.name, timeout: timeout, reporting: .console(json: printsJSON), concurrency: concurrency)
                .collect(from: nodes, into: destination, client: client, watch: watch)
            if let unfinished { throw unfinished }
        case .serve:
            break
        }
    }

    /// Serves the rig's page until told to stop; its collections keep the photos in the library in `folder`.
    private func serve(folder: String, host: String, port: Int, client: MQTTClient, watch: FleetWatch) async throws(CommandFailure) {
        let controls = ControlInbox.shared.claimed()
        let collection = FleetCollection(fleet: fleet.name, timeout: timeout, reporting: .console(json: false), concurrency: concurrency)
        // Made now, for its token, and so that a library that cannot be is said at once.
        try await PhotoSaving.onLane { () throws(CommandFailure) in _ = try collection.open(.library(folder)) }
        let access = try ServeCommand.accessControl(folder: folder, host: host)
        let server: RigServer
        do throws(HTTPServerError) {
            server = try RigServer(fleet: fleet.name, client: client, watch: watch, timeout: timeout, host: host, port: port, access: access) { progressed in
                var collection = collection
                collection.reporting = .progress(progressed)
                do throws(CommandFailure) {
                    return try await collection.collect(from: watch.nodes(), into: .library(folder), client: client, watch: watch).unfinished.map { [$0.message] } ?? []
                } catch {
                    return [error.message]
                }
            }
        } catch {
            throw CommandFailure("\(error.description); choose another with --listen", exitCode: .unavailable)
        }
        if printsJSON {
            try Console.json(EventRecord.serving(url: server.url, port: server.port, tokenRequired: !access.isOnLoopback, rtspURL: nil, rtspPort: nil))
        } else {
            try Console.result("serving the rig of the fleet \(fleet.name) at \(server.url)")
        }
        ServiceManager.tell("READY=1\nSTATUS=serving the rig of the fleet \(fleet.name) at \(server.url)")
        await controls.awaitStop()
        await server.stop()
    }

    /// The fleet's nodes, once the broker has told their retained statuses (a second), or once
    /// `--nodes` of them are online.
    private func nodesOnline(_ watch: FleetWatch) async throws(CommandFailure) -> [FleetWatch.Node] {
        guard let awaitedNodes else {
            try? await Task.sleep(for: .seconds(1))
            return watch.nodes()
        }
        let deadline = ContinuousClock.now + .seconds(timeout)
        while watch.nodes().filter(\.isOnline).count < awaitedNodes, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(50))
        }
        let online = watch.nodes().filter(\.isOnline).count
        guard online >= awaitedNodes else {
            throw CommandFailure("only \(online) of the \(awaitedNodes) nodes of the fleet \(fleet.name) came online within \(Int(timeout)) s; check that they run, or raise --timeout",
                                 exitCode: .unavailable)
        }
        return watch.nodes()
    }

    /// A synchronized capture on every online node, told as it is answered; the photos taken (each
    /// node's, and its name for it), and what failed (no node online, a node that refused or did
    /// not answer), which the caller throws once the photos are collected.
    ///
    /// - Throws: ``CommandFailure`` when standard output refuses the report.
    private func capture(on nodes: [FleetWatch.Node], client: MQTTClient,
                         watch: FleetWatch) async throws(CommandFailure) -> (photos: [(node: String, fileName: String)], failure: CommandFailure?) {
        let capture: SynchronizedCapture
        do {
            capture = try await SynchronizedCapture.run(fleet: fleet.name, nodes: nodes, delay: delay, timeout: timeout, client: client, watch: watch)
        } catch .noNodeOnline {
            return ([], CommandFailure("no node of the fleet \(fleet.name) is online on the broker; start one with camctl serve --broker … --fleet \(fleet.name)",
                                       exitCode: .unavailable))
        } catch {
            return ([], CommandFailure("the command could not be sent to the broker", exitCode: .unavailable))
        }
        try report(capture)
        let photos = capture.photos.map { (node: $0.node, fileName: $0.fileName) }
        let (refused, silent) = capture.missing
        guard refused.isEmpty, silent.isEmpty else {
            let parts = (silent.isEmpty ? [] : ["\(silent.joined(separator: ", ")) did not answer in time"])
                + (refused.isEmpty ? [] : ["\(refused.joined(separator: ", ")) refused"])
            return (photos, CommandFailure(parts.joined(separator: "; ") + "; their photos were not taken", exitCode: .unavailable))
        }
        return (photos, nil)
    }

    /// Prints each node's answer, then the skew.
    private func report(_ capture: SynchronizedCapture) throws(CommandFailure) {
        for node in capture.nodes {
            switch capture.answers[node] {
            case .photo(let capturedAt, let path, let fileName)?:
                let offset = (capturedAt - capture.instant) * 1000
                if printsJSON {
                    try Console.json(["node": .string(node), "captured_at_us": .integer(Int64((capturedAt * 1e6).rounded())), "offset_ms": .number(offset),
                                      "path": .string(path), "file_name": .string(fileName)] as JSONValue)
                } else {
                    try Console.result("\(node)  " + String(printf: "%+.1f", offset) + " ms  \(path)")
                }
            case .refused(let message)?:
                if printsJSON { try Console.json(["node": .string(node), "error": .string(message)] as JSONValue) } else { try Console.result("\(node)  refused: \(message)".terminalSafe(limit: 500)) }
            case nil, .listing?:
                if printsJSON { try Console.json(["node": .string(node), "error": "no answer"] as JSONValue) } else { try Console.result("\(node)  no answer") }
            }
        }
        let taken = capture.photos.count
        if printsJSON {
            try Console.json(["fleet": .string(fleet.name), "at_us": .integer(Int64((capture.instant * 1e6).rounded())), "photos": .integer(Int64(taken)),
                              "skew_ms": .number(capture.skewMilliseconds)] as JSONValue)
        } else if taken > 1 {
            try Console.result(String(printf: "skew %.1f ms over %ld nodes", capture.skewMilliseconds, taken))
        }
    }
}
