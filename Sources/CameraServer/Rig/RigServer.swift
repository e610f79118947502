import Blocking
import FleetControl
import FoundationEssentials
import HTTPServer
import JSON
import MQTTClient
import Synchronization

/// `camctl fleet serve`: a fleet's controller on the web. Its page shows every node as a tile of
/// its live picture (fetched by the browser from the node itself, at most 320 pixels and 5 a
/// second, so the controller encodes nothing), with its state, last photo, missed captures and
/// free disk; it has one shutter for the whole rig, a synchronized capture at an instant, and
/// the collection of every node's photos with its progress. The same token, Host and Origin rules
/// as ``CameraServer``'s.
///
/// | request | what |
/// |---|---|
/// | `GET /` | the page |
/// | `GET /api/rig` | the nodes, the latest captures and the collection, as one JSON object |
/// | `POST /api/capture` `{"in": SECONDS}` | a synchronized capture that many seconds from now (1), answered once the nodes have |
/// | `POST /api/collect` | starts collecting the nodes' photos (`202`); its progress is in `/api/rig` |
public final class RigServer: Sendable {
    /// Collects the online nodes' photos, telling its progress as it goes; returns what kept some
    /// from being collected (nothing when every photo was).
    public typealias Collector = @Sendable (_ progressed: @escaping @Sendable (CollectionProgress) -> Void) async -> [String]

    /// The port it listens on.
    public let port: Int
    /// Where other machines reach the page.
    public var url: String { address.url + "/" }
    private let address = PublicAddress()
    private let http: Mutex<HTTPServer?>
    private let routes: RigRoutes

    /// Serves the page of `fleet`, whose nodes `watch` hears through `client`, on `host`:`port`
    /// (`0`: one the system picks); a node has `timeout` seconds after a capture's instant to answer.
    ///
    /// - Throws: ``HTTPServerError`` when the address cannot be listened on.
    public init(fleet: String, client: MQTTClient, watch: FleetWatch, timeout: Double, host: String, port: Int, access: AccessControl,
                collect: @escaping Collector) throws(HTTPServerError) {
        let routes = RigRoutes(fleet: fleet, client: client, watch: watch, timeout: timeout, access: access, collect: collect)
        let server = try HTTPServer(host: host, port: port) { request in await routes.respond(to: request) }
        self.routes = routes
        self.port = server.port
        address.set(publicURL: nil, host: host, port: server.port)
        http = Mutex(server)
    }

    /// Stops listening, and ends a collection under way (the next goes on where it stopped).
    public func stop() async {
        await routes.stop()
        let server = http.withLock { server in defer { server = nil }; return server }
        await BlockingLane(label: "camctl.rig-server-stop").run { server?.stop() }  // it waits for its connections' threads
    }
}

/// The rig server's answers.
private final class RigRoutes: Sendable {
    let fleet: String
    let client: MQTTClient
    let watch: FleetWatch
    let timeout: Double
    let access: AccessControl
    let collect: RigServer.Collector
    let board = RigBoard()
    /// The collection under way.
    private let collecting = Mutex<Task<Void, Never>?>(nil)

    init(fleet: String, client: MQTTClient, watch: FleetWatch, timeout: Double, access: AccessControl, collect: @escaping RigServer.Collector) {
        (self.fleet, self.client, self.watch, self.timeout, self.access, self.collect) = (fleet, client, watch, timeout, access, collect)
    }

    func respond(to request: HTTPRequest) async -> HTTPResponse {
        await access.answer(request) { request throws(APIError) in try await route(request) }
    }

    func stop() async {
        let task = collecting.withLock { $0 }
        task?.cancel()
        await task?.value
    }

    private func route(_ request: HTTPRequest) async throws(APIError) -> HTTPResponse {
        let path = request.pathParts.joined(separator: "/")
        let method = request.method == "HEAD" ? "GET" : request.method
        if path.hasPrefix("api/"), !access.allows(request) {
            throw APIError(401, access.isOnLoopback
                ? "changing anything needs the access token: use the rig's page, or send Authorization: Bearer TOKEN (the library's serve-token file holds it)"
                : "this server needs its access token: open the page once with ?token=TOKEN (camctl fleet serve printed it), or send Authorization: Bearer TOKEN")
        }
        switch (method, path) {
        case ("GET", ""), ("GET", "index.html"):
            return HTTPResponse(type: "text/html; charset=utf-8", bytes: Array(RigPage.html.utf8), headers: [("Cache-Control", "no-store")])
        case ("GET", "api/rig"):
            return JSONBody.response(board.record(fleet: fleet, nodes: watch.nodes()))
        case ("POST", "api/capture"):
            return try await capture(try JSONBody.object(request.body))
        case ("POST", "api/collect"):
            return try startCollection()
        case (_, "api/rig"), (_, "api/capture"), (_, "api/collect"):
            throw APIError(405, "\(request.method) is not allowed on \(request.path)")
        default:
            throw APIError.notFound("there is nothing at \(request.path)")
        }
    }

    /// A synchronized capture `in` seconds from now, answered once every node has, or its time is up.
    private func capture(_ object: [String: JSONValue]) async throws(APIError) -> HTTPResponse {
        let delay = object["in"]?.double ?? 1
        guard object["in"] == nil || object["in"]?.double != nil, (0.05...3600).contains(delay) else {
            throw .badRequest("\"in\" is the seconds from now to the capture's instant, from 0.05 to 3600")
        }
        guard board.beginCapture() else { throw APIError(409, "a capture is under way; its answers come within \(Int(timeout)) s of its instant") }
        let known = watch.nodes()
        do {
            let capture = try await SynchronizedCapture.run(fleet: fleet, nodes: known, delay: delay, timeout: timeout, client: client, watch: watch)
            let entry = RigBoard.Capture(capture: capture, known: known.map(\.name))
            board.endCapture(entry)
            return JSONBody.response(RigBoard.record(entry))
        } catch .noNodeOnline {
            board.endCapture(nil)
            throw APIError(503, "no node of the fleet \(fleet) is online; start one with camctl serve --broker … --fleet \(fleet)")
        } catch {
            board.endCapture(nil)
            throw APIError(503, "the capture could not be sent to the broker; check that it runs")
        }
    }

    /// Starts collecting the nodes' photos, unless a collection is under way.
    private func startCollection() throws(APIError) -> HTTPResponse {
        guard board.beginCollection() else { throw APIError(409, "the photos are being collected already; the page shows how far") }
        let (board, collect) = (board, collect)
        collecting.withLock { $0 = Task { board.endCollection(problems: await collect { board.collectionProgressed($0) }) } }
        return JSONBody.response(["collection": "started"] as JSONValue, status: 202)
    }
}
