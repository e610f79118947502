internal import CCrypto

/// OpenSSL's libcrypto, loaded once, when a checksum is first asked for.
enum Crypto {
    /// Its functions, or `nil` when it is not installed. libcrypto comes with nearly every Debian
    /// system (curl and apt's TLS need it); a front end that hashes asks ``CryptoLibrary`` first.
    static let loaded: camctl_crypto? = {
        var api = camctl_crypto()
        return camctl_crypto_load(&api) != 0 ? api : nil
    }()

    /// Its functions, once a front end has made sure they are there.
    static var api: camctl_crypto {
        guard let loaded else { fatalError(CryptoLibrary.missing) }
        return loaded
    }
}

/// Whether checksums and keyed links can be made here: what a front end that makes them
/// (a server's guest links and tokens, a fleet's collected photos) checks before it starts.
public enum CryptoLibrary {
    /// Whether OpenSSL's libcrypto could be loaded.
    public static var isAvailable: Bool { Crypto.loaded != nil }

    /// What to tell the user when it is not.
    public static let missing = "camctl needs OpenSSL's libcrypto 3 for checksums and download links, which is not installed; install it: sudo apt-get install libssl3"
}
