import FoundationEssentials
import HTTPServer
import Synchronization

/// Where guests and other machines reach the server (`http://192.168.1.20:8080`, no slash at the
/// end): the guest links' QR codes and a fleet's download links are made with it. Known once the
/// server listens (its port may be the system's choice).
final class PublicAddress: Sendable {
    /// The address, and what to tell the owner when guests cannot reach it; set together.
    private let state = Mutex<(url: String, guestWarning: String?)>(("", nil))

    /// The address, once the server listens.
    var url: String { state.withLock { $0.url } }

    /// What to tell the owner when guests' phones cannot open the address: the server listens on
    /// loopback alone (any of 127.0.0.0/8 or ::1, which no other machine reaches) and no
    /// `--public-url` names where else it is reached.
    var guestWarning: String? { state.withLock { $0.guestWarning } }

    /// Sets the address: `publicURL` when given, else the listening address when another
    /// machine can use it, else (listening on every address) this machine's own on its network.
    func set(publicURL: String?, host: String, port: Int) {
        let made = publicURL.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
            ?? "http://\(Self.reachableHost(listeningOn: host)):\(port)"
        let isLoopback = host == "localhost" || host == "::1" || host.hasPrefix("127.")
        let warning = publicURL == nil && isLoopback
            ? "guests' phones cannot open the QR codes' links, which name \(made): the server listens on this machine alone; "
                + "serve with --listen 0.0.0.0:\(port) (and --public-url URL when guests reach it at another address)"
            : nil
        state.withLock { $0 = (made, warning) }
    }

    /// The host part other machines use for a server listening on `host`.
    static func reachableHost(listeningOn host: String) -> String {
        guard ["0.0.0.0", "::", ""].contains(host) else { return host.contains(":") ? "[\(host)]" : host }
        return LocalAddress.forOthers() ?? ProcessInfo.processInfo.hostName
    }
}
