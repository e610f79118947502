@_exported import CCurl

/// libcurl's functions, loaded (dlopen) and initialized once, on first use, for every module that
/// speaks through it: downloads and mail.
public struct CurlLibrary: @unchecked Sendable {
    // @unchecked Sendable: function pointers into a library that stays loaded, never changed.
    public let api: camctl_curl

    /// The library; `nil` when libcurl is not installed.
    public static let shared: CurlLibrary? = {
        var api = camctl_curl()
        guard camctl_curl_load(&api) != 0 else { return nil }
        _ = api.global_init(Int(CURL_GLOBAL_DEFAULT))
        return CurlLibrary(api: api)
    }()
}
