import Glibc

/// IPv4 and IPv6 socket addresses from their text.
enum SocketAddress {
    /// Whether `host` is an IPv4 or IPv6 address (not a name).
    static func isAddress(_ host: String) -> Bool {
        var storage = sockaddr_storage()
        return withUnsafeMutableBytes(of: &storage) { fill($0, host: host, port: 0) }
    }

    /// Writes the address `host`:`port` into `storage` (a `sockaddr_storage`); `false` when
    /// `host` is not an address.
    static func fill(_ storage: UnsafeMutableRawBufferPointer, host: String, port: UInt16) -> Bool {
        let v4 = storage.baseAddress!.assumingMemoryBound(to: sockaddr_in.self)
        var address4 = in_addr()
        if inet_pton(AF_INET, host, &address4) == 1 {
            v4.pointee = sockaddr_in()
            v4.pointee.sin_family = sa_family_t(AF_INET)
            v4.pointee.sin_port = port.bigEndian
            v4.pointee.sin_addr = address4
            return true
        }
        var address6 = in6_addr()
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        guard inet_pton(AF_INET6, bare, &address6) == 1 else { return false }
        let v6 = storage.baseAddress!.assumingMemoryBound(to: sockaddr_in6.self)
        v6.pointee = sockaddr_in6()
        v6.pointee.sin6_family = sa_family_t(AF_INET6)
        v6.pointee.sin6_port = port.bigEndian
        v6.pointee.sin6_addr = address6
        return true
    }
}
