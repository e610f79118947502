import CameraKit
import CameraOperator
import CameraServer
import Checksums
import Formatting
import FoundationEssentials
import Glibc
import GStreamer
import HTTPServer
import MailClient
import MQTTClient
import OperatorWire

/// `camctl serve`: the camera on the network: a web page, an HTTP API, the live picture and
/// snapshots, until Ctrl-C or SIGTERM.
struct ServeCommand: Subcommand {
    static let name = "serve"
    static let synopsis = """
        camctl serve    [--listen ADDR:PORT] [--public-url URL] [--rtsp PORT] [--device D] [--resolution WxH[@FPS]] [--library DIR] [--json]
                        [--settings FILE] [--settings-pin-file FILE] [--templates DIR] [--backgrounds DIR]
                        [--broker mqtt://HOST[:PORT][,HOST[:PORT]…] --fleet NAME [--node NAME] [--broker-user USER] [--broker-password-file FILE]
                        [--broker-ca FILE]]
                        [--mail-server smtp[s]://HOST[:PORT] --mail-from ADDRESS [--mail-user USER --mail-password-file FILE]]
        """
    static let summary = "serve the camera on the network: a web page, an HTTP API, the live picture"
    static let help = """
        Serves the camera over HTTP on --listen (127.0.0.1:8080 by default; 0.0.0.0:8080 for every
        address of this machine, [::]:8080 for IPv6): the page at /, the live picture at /stream.mjpg
        (MJPEG, encoded once for every viewer), a snapshot of the frame held now at /snapshot.jpg,
        and the JSON API under /api (README.md lists it). Photos go into the library. The access
        token is made on first use and kept in the library folder (serve-token, readable by its
        owner only). On loopback anyone on this machine may read, and the page may act; a program
        that changes anything sends Authorization: Bearer TOKEN. On any other address every
        request but the page needs the token, which is printed when made; open the page once
        with ?token=TOKEN. Guests' download links and their QR codes use --public-url (the address
        guests' phones reach, such as http://booth.local:8080), else the --listen address when it
        is one another machine can use, else (0.0.0.0) this machine's address on its network; the
        address is printed at start. --printer NAME|URI (a CUPS queue, an ipp:// printer, or default
        for CUPS's default one) lets the API and the page print library photos, at most --print-limit
        copies of each (3), on --media paper, strips twice on a 4x6 inch sheet with --cut-strips (as
        camctl booth --print). The page's Settings change the booth: countdown, shots, layout or
        template (a JSON file of --templates DIR), filter, background behind a green screen (a
        picture of --backgrounds DIR), time stamp, review and printing; they apply at once and are
        kept in the library's booth-settings.json (or --settings FILE), which the next start reads.
        --settings-pin-file FILE (a PIN of 4 to 12 digits) puts them behind that PIN: the page asks
        for it with each change, five wrong ones in a row lock it for a minute, and a program with
        the access token needs none. Ctrl-C or SIGTERM stops the server:
        streams end, a photo being taken is saved, and camctl exits 0.
        --rtsp PORT serves the live picture as H.264 over RTSP too, at rtsp://ADDR:PORT/preview
        (8554 is RTSP's usual port; 0 picks a free one), encoded once for any number of viewers and
        only while one watches: VLC, ffplay, gst-play-1.0 open it. Beyond loopback a viewer logs in
        as camctl with the access token as password.
        With --broker and --fleet the server joins a fleet as --node (this machine's name by default):
        it keeps a retained status at camctl/FLEET/NODE/status (and a last will saying offline),
        takes commands from camctl/FLEET/command and camctl/FLEET/NODE/command, and publishes its
        events and each command's result at camctl/FLEET/NODE/events (README.md lists them).
        --broker-ca connects with TLS; --broker-user and --broker-password-file log in.
        With --mail-server (smtp://HOST:PORT, STARTTLS when the server offers it and always when
        logging in with --mail-user and --mail-password-file; smtps:// for TLS from the start) and
        --mail-from, each guest's page can e-mail its picture to the address the guest types (a
        HEIC as JPEG), at most 3 times a picture and 60 messages in all an hour; the address is
        used for that message alone and kept nowhere.
        """ + "\n" + ImageOptions.help
    static let options = SessionOptions.options + [
        .init(name: "--printer", value: "NAME|URI"), .init(name: "--print-limit", value: "N"), .init(name: "--media", value: "SIZE"),
        .init(name: "--cut-strips", value: nil),
        .init(name: "--settings", value: "FILE"), .init(name: "--settings-pin-file", value: "FILE"), .init(name: "--templates", value: "DIR"), .init(name: "--backgrounds", value: "DIR"),
        .init(name: "--listen", value: "ADDR:PORT"), .init(name: "--public-url", value: "URL"), .init(name: "--rtsp", value: "PORT"), .init(name: "--library", value: "DIR"),
        .init(name: "--json", value: nil),
        .init(name: "--broker", value: "URL"), .init(name: "--fleet", value: "NAME"), .init(name: "--node", value: "NAME"),
        .init(name: "--broker-user", value: "USER"), .init(name: "--broker-password-file", value: "FILE"),
        .init(name: "--broker-ca", value: "FILE"),
        .init(name: "--mail-server", value: "URL"), .init(name: "--mail-from", value: "ADDRESS"), .init(name: "--mail-user", value: "USER"),
        .init(name: "--mail-password-file", value: "FILE"),
    ]

    let session: SessionOptions
    let arguments: ParsedArguments
    let host: String
    let port: Int
    /// The fleet to join, without the server's address (known once it listens).
    let fleet: CameraServer.Fleet?
    /// The RTSP stream's port, when it is asked for.
    let rtspPort: Int?
    /// Where guests reach the server, when told.
    let publicURL: String?
    /// The printer the API's `print` action prints on, when one is named.
    let printing: CameraServer.Printing?
    /// The mail server guests' pictures are e-mailed through, when one is named.
    let mail: MailServer?
    /// The PIN the booth's settings are behind, when one is given.
    let settingsPIN: String?

    init(_ arguments: ParsedArguments) throws(CommandFailure) {
        try arguments.requirePositionals([])
        self.arguments = arguments
        session = try SessionOptions(arguments)
        (host, port) = try Self.address(arguments.string("--listen") ?? "127.0.0.1:8080")
        fleet = try Self.fleet(arguments)
        mail = try Self.mail(arguments)
        settingsPIN = try arguments.string("--settings-pin-file").map { file throws(CommandFailure) in
            guard let read = try? String(contentsOfFile: file, encoding: .utf8) else {
                throw CommandFailure("--settings-pin-file \(file) cannot be read", exitCode: .usage)
            }
            let pin = read.trimmed(where: \.isWhitespace)
            guard SettingsPIN.isPIN(pin) else {
                throw CommandFailure("--settings-pin-file \(file) holds no PIN; write 4 to 12 digits in it", exitCode: .usage)
            }
            return pin
        }
        let limit = try arguments.integer("--print-limit", in: 1...100)
        for option in ["--print-limit", "--media", "--cut-strips"] where arguments.string("--printer") == nil
            && (arguments.string(option) != nil || arguments.flag(option)) {
            throw CommandFailure("\(option) goes with --printer", exitCode: .usage)
        }
        let (cutsStrips, media) = (arguments.flag("--cut-strips"), try PicturePrinting.media(arguments))
        printing = arguments.string("--printer").map {
            CameraServer.Printing(printer: PicturePrinting.printer(named: $0), limit: limit ?? 3, media: media, cutsStrips: cutsStrips)
        }
        publicURL = try arguments.string("--public-url").map { url throws(CommandFailure) in
            guard Self.isGuestURL(url) else {
                throw CommandFailure("--public-url \(url) is not an http:// or https:// address with a host, such as http://booth.local:8080",
                                     exitCode: .usage)
            }
            return url
        }
        rtspPort = try arguments.string("--rtsp").map { text throws(CommandFailure) in
            guard let port = Int(text), (0...65535).contains(port) else {
                throw CommandFailure("--rtsp \(text) is not a port number; RTSP's usual one is 8554", exitCode: .usage)
            }
            return port
        }
    }

    /// `--mail-server smtp[s]://HOST[:PORT]` with `--mail-from`, and `--mail-user` with
    /// `--mail-password-file` to log in.
    static func mail(_ arguments: ParsedArguments) throws(CommandFailure) -> MailServer? {
        guard let url = arguments.string("--mail-server") else {
            let given = ["--mail-from", "--mail-user", "--mail-password-file"].first { arguments.string($0) != nil }
            if let given { throw CommandFailure("\(given) goes with --mail-server smtp://HOST:PORT", exitCode: .usage) }
            return nil
        }
        guard let text = arguments.string("--mail-from"), let from = MailAddress(text) else {
            throw CommandFailure("--mail-server needs --mail-from ADDRESS, the address guests' mail comes from, such as booth@example.com",
                                 exitCode: .usage)
        }
        let user = arguments.string("--mail-user")
        var password: String?
        if let file = arguments.string("--mail-password-file") {
            guard user != nil else { throw CommandFailure("--mail-password-file goes with --mail-user USER", exitCode: .usage) }
            guard let read = try? String(contentsOfFile: file, encoding: .utf8) else {
                throw CommandFailure("--mail-password-file \(file) cannot be read", exitCode: .usage)
            }
            password = read.trimmed(where: \.isNewline)
        }
        do {
            return try MailServer(url: url, from: from, user: user, password: password)
        } catch {
            throw CommandFailure("--mail-server: \(error.message)", exitCode: .usage)
        }
    }

    /// `--broker mqtt://HOST[:PORT][,HOST[:PORT]…]` (or `mqtts://`, port 8883 by default: several
    /// brokers tried in turn) with `--fleet`, and the
    /// options passed through to the broker's client.
    static func fleet(_ arguments: ParsedArguments) throws(CommandFailure) -> CameraServer.Fleet? {
        guard let broker = arguments.string("--broker") else {
            let given = ["--fleet", "--node", "--broker-user", "--broker-password-file", "--broker-ca"].first { arguments.string($0) != nil }
            if let given { throw CommandFailure("\(given) needs --broker mqtt://HOST[:PORT]", exitCode: .usage) }
            return nil
        }
        let secure = broker.hasPrefix("mqtts://")
        guard secure || broker.hasPrefix("mqtt://") else {
            throw CommandFailure("--broker \(broker) is not mqtt://HOST[:PORT] or mqtts://HOST[:PORT]", exitCode: .usage)
        }
        // Several brokers (a cluster's servers), tried in turn: mqtt://HOST[:PORT],HOST[:PORT],…
        let addresses = try String(broker.dropFirst(secure ? 8 : 7)).split(separator: ",", omittingEmptySubsequences: false).map { part throws(CommandFailure) in
            try address(part.contains(":") ? String(part) : part + ":\(secure ? 8883 : 1883)", of: "--broker")
        }
        let (host, port) = addresses[0]  // split never gives none
        guard let name = arguments.string("--fleet"), Self.isTopicWord(name) else {
            throw CommandFailure("--broker needs --fleet NAME: letters, digits, - and _", exitCode: .usage)
        }
        let node = arguments.string("--node") ?? ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init) ?? "camctl"
        guard Self.isTopicWord(node) else { throw CommandFailure("--node \(node) is not a name of letters, digits, - and _", exitCode: .usage) }
        var options = MQTTClient.Options(host: host, port: port, clientID: "camctl-\(name)-\(node)")
        options.otherBrokers = addresses.dropFirst().map { MQTTClient.Address(host: $0.host, port: $0.port) }
        options.username = arguments.string("--broker-user")
        if let file = arguments.string("--broker-password-file") {
            guard let password = try? String(contentsOfFile: file, encoding: .utf8) else {
                throw CommandFailure("--broker-password-file \(file) cannot be read", exitCode: .usage)
            }
            options.password = password.trimmed(where: \.isNewline)
        }
        options.certificateAuthority = arguments.string("--broker-ca") ?? (secure ? "/etc/ssl/certs/ca-certificates.crt" : nil)
        return CameraServer.Fleet(broker: options, name: name, node: node, version: camctlVersion)
    }

    /// Whether a name may stand in an MQTT topic as one level.
    static func isTopicWord(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 64 && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
    }

    /// Pings systemd's watchdog, when it watches this process, twice in each of its intervals, for
    /// as long as the session's actor answers and GStreamer returns from every change of state:
    /// a camctl that hangs is restarted. A change stuck past ``hungStateChange`` (an element caught
    /// in a device or daemon call while the camera stops or starts) asks systemd for the restart at once.
    private static func pingWatchdog(while session: CaptureSession) -> Task<Void, Never>? {
        guard let interval = ServiceManager.watchdogInterval else { return nil }
        return Task {
            while !Task.isCancelled {
                _ = await session.status
                if let stuck = StateChangeWatch.longestUnderway, stuck > hungStateChange {
                    ServiceManager.tell("STATUS=a GStreamer pipeline (the camera's, most often) has not stopped or started for \(stuck.components.seconds) s; "
                        + "it is stuck in a driver or a daemon, so camctl asks to be restarted\nWATCHDOG=trigger")
                    return
                }
                ServiceManager.tell("WATCHDOG=1")
                try? await Task.sleep(for: interval / 2)
            }
        }
    }

    /// How long GStreamer may take to return from a change of the camera's state before camctl
    /// counts it as hung: opening a device or stopping it takes a second or two; waiting for the
    /// first frames is not part of it (that has a time-out of its own).
    static let hungStateChange = Duration.seconds(10)

    /// Whether `url` can be given to guests: `http://` or `https://`, a host, and no query,
    /// fragment, space or control character.
    static func isGuestURL(_ url: String) -> Bool {
        guard url.hasPrefix("http://") || url.hasPrefix("https://"), url.utf8.count <= 2048 else { return false }
        let host = url.drop { $0 != "/" }.dropFirst(2).prefix { $0 != "/" }
        return !host.isEmpty && !url.contains { $0.isWhitespace || $0 == "?" || $0 == "#" || $0.asciiValue.map { $0 < 0x20 } == true }
    }

    static func address(_ text: String, of option: String = "--listen") throws(CommandFailure) -> (host: String, port: Int) {
        let split = text.lastIndex(of: ":")
        let host = split.map { String(text[..<$0]) } ?? "127.0.0.1"
        let portText = split.map { String(text[text.index(after: $0)...]) } ?? text
        guard let port = Int(portText), (0...65535).contains(port), !host.isEmpty else {
            throw CommandFailure("\(option) \(text) is not ADDRESS:PORT, such as 127.0.0.1:8080 or 0.0.0.0:8080", exitCode: .usage)
        }
        return (host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host, port)
    }

    func run() async throws(CommandFailure) {
        guard CryptoLibrary.isAvailable else { throw CommandFailure(CryptoLibrary.missing, exitCode: .unavailable) }
        let controls = ControlInbox.shared.claimed()
        let library = arguments.string("--library").map(PhotoSaving.Library.folder) ?? .standard
        let delivery = try await PhotoSaving.onLane { () throws(CommandFailure) -> sending PhotoDelivery in
            try PhotoSaving.delivery(library: library, output: nil, photoCount: nil)
        }
        guard let folder = delivery.library?.folder else { throw CommandFailure("camctl serve needs a library", exitCode: .usage) }
        let access = try Self.accessControl(folder: folder, host: host)
        if rtspPort != nil {
            let missing = [("x264enc", "gstreamer1.0-plugins-ugly"), ("h264parse", "gstreamer1.0-plugins-bad"), ("rtph264pay", "gstreamer1.0-plugins-good")]
                .filter { !GStreamerRuntime.hasElement($0.0) }
            guard missing.isEmpty else {
                throw CommandFailure("--rtsp needs GStreamer's \(missing.map(\.0).joined(separator: ", ")); install \(missing.map(\.1).joined(separator: " and "))",
                                     exitCode: .unavailable)
            }
        }
        let settings: BoothSettings
        do {
            // Kept in the library unless told elsewhere, so what the owner saves survives a restart.
            settings = try BoothSettings(file: arguments.string("--settings") ?? "\(folder)/\(BoothSettings.fileName)",
                                         folders: BoothSettings.Folders(templates: arguments.string("--templates"),
                                                                        backgrounds: arguments.string("--backgrounds")),
                                         hasPrinter: printing != nil)
        } catch {
            throw CommandFailure("--settings: \(error.commandLineSentence)", exitCode: error.code == .unreadableFile ? .dataError : .usage)
        }
        let camera = try await session.camera(controls: controls)
        var configuration = session.configuration(for: camera)
        configuration.image = settings.image(from: configuration.image)
        configuration.liveJPEG = LiveJPEGConfiguration()
        if rtspPort != nil { configuration.liveH264 = LiveH264Configuration() }
        configuration.resumesAutomatically = true
        configuration.movies = true
        let captureSession = CaptureSession(configuration: configuration)
        let liveView = Self.noteNoLiveView(of: captureSession)
        defer { liveView.cancel() }
        try await session.start(captureSession)
        let server: CameraServer
        let (host, port, fleet, rtspPort, publicURL, printing, mail, settingsPIN) = (host, port, fleet, rtspPort, publicURL, printing, mail, settingsPIN)
        // The delivery goes into the server whole: nothing here uses it again.
        nonisolated(unsafe) let handedDelivery = delivery
        do {
            // Made where libraries are opened: it opens the library's shelf and its fleet's ledger.
            server = try await PhotoSaving.onLane { () -> sending Result<CameraServer, any Error> in
                do {
                    return .success(try CameraServer(session: captureSession, delivery: handedDelivery, device: camera, library: folder,
                                                     host: host, port: port, access: access, fleet: fleet, rtspPort: rtspPort,
                                                     publicURL: publicURL, printing: printing, mail: mail, settings: settings,
                                                     settingsPIN: settingsPIN))
                } catch {
                    return .failure(error)
                }
            }.get()
        } catch let error as HTTPServerError {
            await captureSession.stop()
            throw CommandFailure("\(error.description); choose another with --listen", exitCode: .unavailable)
        } catch let error as GStreamerError {
            await captureSession.stop()
            // A port that cannot be listened on is the user's to change; a missing library says what to install.
            throw CommandFailure(error.message + (error.kind == .resource ? "; choose another port with --rtsp" : ""), exitCode: .unavailable)
        } catch {
            await captureSession.stop()
            throw CommandFailure("the server could not start: \(error)", exitCode: .software)
        }
        let (url, rtspURL) = (server.url, server.rtspURL)
        if arguments.flag("--json") {
            try Console.json(EventRecord.serving(url: url, port: server.port, tokenRequired: !access.isOnLoopback, rtspURL: rtspURL,
                                                 rtspPort: server.rtspPort))
        } else {
            try Console.result("serving \(camera.name) at \(url)" + (rtspURL.map { " and \($0)" } ?? ""))
        }
        if let warning = server.guestWarning { Console.note(warning) }
        ServiceManager.tell("READY=1\nSTATUS=serving \(camera.name) at \(url)")
        let watchdog = Self.pingWatchdog(while: captureSession)
        defer { watchdog?.cancel() }
        await controls.awaitStop {
            // As every command takes a photo on SIGUSR1: told to the clients as the page's are.
            do throws(OperatorError) {
                _ = try await server.sessionOperator.perform(.takePhoto(PhotoSettings()))
            } catch {
                Console.note("no photo: \(CommandFailure(error).message)")
            }
        }
        await server.stop()
    }

    /// The library's access token: on loopback only what changes anything needs it (the page
    /// has its own cookie); on any other address everything but the page, and it is printed when made.
    static func accessControl(folder: String, host: String) throws(CommandFailure) -> AccessControl {
        do {
            let (token, created) = try AccessControl.token(in: folder)
            if AccessControl.isLoopback(host) { return AccessControl(token: token, onLoopback: true) }
            if created {
                Console.note("the access token for other machines is \(token) (kept in \(folder)/serve-token): open the page once with ?token=\(token)")
            } else {
                Console.note("other machines need the access token kept in \(folder)/serve-token: open the page once with ?token=TOKEN")
            }
            return AccessControl(token: token, onLoopback: false)
        } catch {
            throw CommandFailure(error.description, exitCode: .ioError)
        }
    }

    /// Says once that a DSLR without live view shows its last photo: the server's operator, made
    /// once the camera runs, is not told what the camera's start said.
    private static func noteNoLiveView(of session: CaptureSession) -> Task<Void, Never> {
        let told = session.events()
        return Task {
            for await event in told {
                guard case .noLiveView(let name) = event else { continue }
                Console.note("\(name) has no live view; the preview shows its last photo")
                return
            }
        }
    }
}
