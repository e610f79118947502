import FoundationEssentials
import HTTPServer
import Synchronization

/// Where guests and other machines reach the server (`http://192.168.1.20:8080`, no slash at the
/// end): the guest links' QR codes and a fleet's download links are made with it. Known once the
/// server listens (its port may be the system's choice).
final class PublicAddress: Sendable {
    private let base = Mutex("")

    /// The address, once the server listens.
    var url: String { base.withLock { $0 } }

    /// Sets the address: `publicURL` when given, else the listening address when another
    /// machine can use it, else (listening on every address) this machine's own on its network.
    func set(publicURL: String?, host: String, port: Int) {
        let made = publicURL.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
            ?? "http://\(Self.reachableHost(listeningOn: host)):\(port)"
        base.withLock { $0 = made }
    }

    /// The host part other machines use for a server listening on `host`.
    static func reachableHost(listeningOn host: String) -> String {
        guard ["0.0.0.0", "::", ""].contains(host) else { return host.contains(":") ? "[\(host)]" : host }
        return LocalAddress.forOthers() ?? ProcessInfo.processInfo.hostName
    }
}
