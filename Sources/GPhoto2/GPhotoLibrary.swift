import CGPhoto2

/// libgphoto2's functions, loaded (dlopen) once, when a DSLR or mirrorless camera is first asked
/// for or listed.
struct GPhotoLibrary: @unchecked Sendable {
    // @unchecked Sendable: function pointers into a library that stays loaded, never changed.
    let api: camctl_gphoto2

    /// The library; `nil` when libgphoto2 is not installed.
    static let shared: GPhotoLibrary? = {
        var api = camctl_gphoto2()
        guard camctl_gphoto2_load(&api) != 0 else { return nil }
        return GPhotoLibrary(api: api)
    }()

    /// The library, or why there is none.
    static func loaded() throws(GPhotoError) -> camctl_gphoto2 {
        guard let shared else {
            throw GPhotoError(code: 0, "DSLR and mirrorless cameras need libgphoto2, which is not installed; install the libgphoto2-6 package")
        }
        return shared.api
    }

    /// Runs a libgphoto2 call; its negative results become a ``GPhotoError`` saying what `doing` failed.
    static func check(_ result: Int32, _ doing: @autoclosure () -> String, port: String? = nil) throws(GPhotoError) {
        guard result < 0 else { return }
        throw GPhotoError(result: result, doing: doing(), port: port)
    }
}
