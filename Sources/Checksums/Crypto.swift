internal import CCrypto

/// OpenSSL's libcrypto, loaded once, when a checksum is first asked for.
enum Crypto {
    /// Its functions. libcrypto comes with every Debian system camctl runs on (curl and apt's
    /// TLS need it); without it no checksum can be made, which is said in one sentence.
    static let api: camctl_crypto = {
        var api = camctl_crypto()
        guard camctl_crypto_load(&api) != 0 else {
            fatalError("camctl needs OpenSSL's libcrypto 3 for checksums; install it: sudo apt-get install libssl3")
        }
        return api
    }()
}
