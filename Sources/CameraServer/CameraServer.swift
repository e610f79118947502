import Blocking
import CameraKit
import CameraOperator
import FoundationEssentials
import Glibc
import GStreamer
import HTTPServer
import JSON
import MailClient
import MQTTClient
import OperatorWire
import PhotoLibrary
import Synchronization

/// `camctl serve`: a running session on the network. A browser page, a JSON API for every operator
/// action, the live picture as MJPEG, snapshots from the held frame, the library, and events.
///
/// ```swift
/// let server = try await CameraServer(session: session, delivery: delivery, device: camera,
///                                     library: folder, host: "127.0.0.1", port: 8080)
/// // … until asked to stop:
/// await server.stop()
/// ```
public final class CameraServer: Sendable {
    /// The operator every request drives.
    public let sessionOperator: SessionOperator
    private let session: CaptureSession
    private let shelf: LibraryShelf?
    private let events: EventHub
    private let access: AccessControl
    private let http: Mutex<HTTPServer?>
    private let watchers: Mutex<[Task<Void, Never>]>
    /// The port it listens on.
    public let port: Int
    /// Where guests and other machines reach it (`http://192.168.1.20:8080/`).
    public var url: String { address.url + "/" }
    /// Said to the owner when guests' phones cannot open the QR codes' links (a server on loopback).
    public var guestWarning: String? { address.guestWarning }
    /// Its live picture over RTSP as other machines reach it, when it is served.
    public var rtspURL: String? { rtsp.map { "rtsp://\(rtspHost):\($0.port)\(RTSPPreview.path)" } }
    private let address: PublicAddress
    private let rtspHost: String
    /// The node of a fleet it is, when it joined one.
    private let node: FleetNode?
    /// The live picture over RTSP, when asked for.
    private let rtsp: RTSPPreview?
    /// The RTSP stream's port, when it is served.
    public var rtspPort: Int? { rtsp?.port }

    /// The printer the API's `print` action prints on (`nil`: CUPS's default), and the most copies
    /// of one picture it prints.
    public struct Printing: Sendable {
        /// A CUPS queue's name or an IPP printer's URI; `nil` for CUPS's default printer.
        public var printer: String?
        /// The most copies of one picture the server prints.
        public var limit: Int
        /// The paper (a PWG name or a short one such as `4x6`); `nil` for the printer's default.
        public var media: String?
        /// Whether a strip is printed twice on a 4x6 inch sheet to be cut in two (``PrintSheet``).
        public var cutsStrips: Bool

        public init(printer: String?, limit: Int, media: String? = nil, cutsStrips: Bool = false) {
            (self.printer, self.limit, self.media, self.cutsStrips) = (printer, limit, media, cutsStrips)
        }
    }

    /// A fleet to join: the broker, and the fleet's and this node's names.
    public struct Fleet: Sendable {
        public var broker: MQTTClient.Options
        public var name: String
        public var node: String
        /// The software the node runs, for its status.
        public var version: String

        public init(broker: MQTTClient.Options, name: String, node: String, version: String) {
            (self.broker, self.name, self.node, self.version) = (broker, name, node, version)
        }
    }

    /// Serves `session` (started, running on `device`) on `host`:`port`, delivering photos through
    /// `delivery` and reading the library in `library` (its folder) for the gallery; with
    /// `rtspPort`, the live picture over RTSP too (the session configured with `liveH264`).
    /// Guests' links, their QR codes and a fleet's download links use `publicURL`, else the
    /// listening address when another machine can use it, else this machine's own on its network.
    /// With `mail`, guests' pages e-mail their pictures through that server; with `settingsPIN`,
    /// the settings change only for that PIN or the access token.
    ///
    /// - Throws: ``HTTPServerError`` when it cannot listen; ``GStreamerError`` when the RTSP
    ///   server cannot; a library that cannot be opened is a ``LibraryError``.
    public init(session: CaptureSession, delivery: sending PhotoDelivery, device: CaptureDevice, library: String?,
                host: String, port: Int, access: AccessControl, fleet: Fleet? = nil, rtspPort: Int? = nil, publicURL: String? = nil,
                printing: Printing? = nil, mail: MailServer? = nil, settings: BoothSettings? = nil, settingsPIN: String? = nil,
                limits: HTTPServer.Limits = HTTPServer.Limits()) throws {
        let events = EventHub()
        self.events = events
        let links = try library.map { folder throws in try GuestLinks(folder: folder) }
        // Where other machines reach this server; its port is known once it listens.
        let address = PublicAddress()
        let isNode = fleet != nil
        // A fleet node delivers every photo final, told with its checksum and where to download
        // it: its controller collects files by them. Photos are told as the operator's events.
        let downloadBase: (@Sendable () -> String)? = isNode ? { @Sendable in address.url } : nil
        sessionOperator = SessionOperator(camera: session, delivery: delivery, device: device, checksums: isNode, downloadBase: downloadBase)
        self.session = session
        self.access = access
        shelf = try library.map { folder throws in try LibraryShelf(folder: folder, links: links) }
        http = Mutex(nil)
        watchers = Mutex([])
        let router = Router(sessionOperator: sessionOperator, session: session, shelf: shelf, events: events, access: access, links: links,
                            address: address, printDesk: printing.map(PrintDesk.init), mailDesk: mail.map(MailDesk.init),
                            settings: try settings ?? BoothSettings(file: nil, folders: BoothSettings.Folders(), hasPrinter: printing != nil),
                            settingsPIN: settingsPIN.map(SettingsPIN.init))
        let server = try HTTPServer(host: host, port: port, limits: limits) { request in await router.respond(to: request) }
        self.port = server.port
        address.set(publicURL: publicURL, host: host, port: server.port)
        (self.address, rtspHost) = (address, PublicAddress.reachableHost(listeningOn: host))
        http.withLock { $0 = server }
        let rtsp: RTSPPreview?
        do {
            rtsp = try rtspPort.map { port throws(GStreamerError) in
                try RTSPPreview(output: session.liveH264Output, host: host, port: port, access: access)
            }
        } catch {
            server.stop()
            throw error
        }
        self.rtsp = rtsp
        node = try fleet.map { [rtspHost] fleet throws in
            let base = address.url
            let rtspURL = rtsp.map { "rtsp://\(rtspHost):\($0.port)\(RTSPPreview.path)" }
            return try FleetNode(options: fleet.broker, fleet: fleet.name, node: fleet.node, router: router, events: events, base: base,
                                 ledger: try CommandLedger(library: library)) {
                var status = await router.status()
                (status.fleet, status.node, status.url, status.camctlVersion) = (fleet.name, fleet.node, base + "/", fleet.version)
                (status.clock, status.rtspURL, status.tileURL) = (SystemClock.now()?.record, rtspURL, links.map { base + $0.tilePath })
                return status
            }
        }
        watch()
    }

    /// Relays the operator's events, and keeps idle event clients alive.
    private func watch() {
        let (events, told) = (self.events, sessionOperator.events())
        let relays = [
            Task {
                for await event in told { events.publish(event.record) }
            },
            Task {
                while !Task.isCancelled {
                    try? await Task.sleep(for: .seconds(10))
                    events.keepAlive()
                }
            },
        ]
        watchers.withLock { $0 = relays }
    }

    /// Stops the session (a waiting review keeps its pictures, a photo in flight is saved), ends
    /// the streams, and stops listening.
    public func stop() async {
        _ = try? await sessionOperator.perform(.stop)  // it has no failure of its own: a movie not kept is told as an event
        try? await sessionOperator.finishProcessing()  // its reports are events, told to whoever still listens
        node?.leave()
        for task in watchers.withLock({ $0 }) { task.cancel() }
        events.finish()
        let server = http.withLock { server in defer { server = nil }; return server }
        let rtsp = self.rtsp
        // Both wait for threads of theirs (the connections', the RTSP server's loop and media), off Swift's shared threads.
        await BlockingLane(label: "camctl.server-stop").run {
            rtsp?.stop()
            server?.stop()
        }
    }
}
