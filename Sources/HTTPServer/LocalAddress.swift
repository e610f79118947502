import Glibc

/// This machine's address on its network, as another machine there (a guest's phone) reaches it.
public enum LocalAddress {
    /// The first IPv4 address of an interface that is up and not loopback; else the first such
    /// IPv6 address that is not link-local, in brackets; `nil` when the machine has neither.
    public static func forOthers() -> String? {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return nil }
        defer { freeifaddrs(list) }
        var (v4, v6): (String?, String?) = (nil, nil)
        for entry in sequence(first: first, next: { $0.pointee.ifa_next }) {
            let flags = entry.pointee.ifa_flags
            guard flags & UInt32(IFF_UP) != 0, flags & UInt32(IFF_LOOPBACK) == 0, let address = entry.pointee.ifa_addr else { continue }
            switch Int32(address.pointee.sa_family) {
            case AF_INET where v4 == nil:
                v4 = numeric(address, length: MemoryLayout<sockaddr_in>.size)
            case AF_INET6 where v6 == nil:
                if let text = numeric(address, length: MemoryLayout<sockaddr_in6>.size), !text.lowercased().hasPrefix("fe80") { v6 = "[\(text)]" }
            default:
                continue
            }
        }
        return v4 ?? v6
    }

    /// An address as numbers (`192.168.1.20`, `fd00::2`).
    private static func numeric(_ address: UnsafeMutablePointer<sockaddr>, length: Int) -> String? {
        var text = [CChar](repeating: 0, count: 64)
        guard getnameinfo(address, socklen_t(length), &text, socklen_t(text.count), nil, 0, NI_NUMERICHOST) == 0 else { return nil }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
