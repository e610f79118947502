import CGPhoto2

/// A DSLR or mirrorless camera libgphoto2 finds connected: its model and port (`usb:001,004`).
public struct GPhotoCameraInfo: Sendable, Equatable {
    public let model: String
    public let port: String
    /// What it can do, as its driver says: photos, live view, settings.
    public let canCapture: Bool
    public let hasLiveView: Bool
    public let hasSettings: Bool

    /// A camera as a driver describes it.
    public init(model: String, port: String, canCapture: Bool = true, hasLiveView: Bool, hasSettings: Bool = true) {
        (self.model, self.port, self.canCapture, self.hasLiveView, self.hasSettings) = (model, port, canCapture, hasLiveView, hasSettings)
    }
}

/// Finding the cameras libgphoto2 drives. Blocking: call it off Swift's shared threads.
public enum GPhotoCameras {
    /// The cameras connected now, each with what its driver can do; none when libgphoto2 is not
    /// installed (so listing cameras never fails for its lack).
    public static func connected() -> [GPhotoCameraInfo] {
        guard GPhotoLibrary.shared != nil, let found = try? detected() else { return [] }
        return found
    }

    /// The cameras connected now.
    ///
    /// - Throws: ``GPhotoError`` when libgphoto2 is missing or cannot look.
    public static func detected() throws(GPhotoError) -> [GPhotoCameraInfo] {
        let api = try GPhotoLibrary.loaded()
        guard let context = api.context_new() else { throw GPhotoError(code: GP_ERROR_NO_MEMORY, "libgphoto2 could not start") }
        defer { api.context_unref(context) }
        var list: OpaquePointer?
        try GPhotoLibrary.check(api.list_new(&list), "the cameras could not be listed")
        defer { _ = api.list_free(list) }
        try GPhotoLibrary.check(api.camera_autodetect(list, context), "the cameras could not be listed")
        var abilitiesList: OpaquePointer?
        try GPhotoLibrary.check(api.abilities_list_new(&abilitiesList), "the cameras could not be listed")
        defer { _ = api.abilities_list_free(abilitiesList) }
        try GPhotoLibrary.check(api.abilities_list_load(abilitiesList, context), "libgphoto2's camera drivers could not be loaded")
        var cameras: [GPhotoCameraInfo] = []
        for index in 0..<max(0, api.list_count(list)) {
            var name: UnsafePointer<CChar>?, value: UnsafePointer<CChar>?
            guard api.list_get_name(list, index, &name) >= 0, api.list_get_value(list, index, &value) >= 0,
                  let name, let value else { continue }
            let model = String(cString: name), port = String(cString: value)
            // The generic "usb:" entry names no camera.
            guard port != "usb:" else { continue }
            let operations = try abilities(of: model, in: abilitiesList, api: api).operations.rawValue
            cameras.append(GPhotoCameraInfo(model: model, port: port,
                                            canCapture: operations & GP_OPERATION_CAPTURE_IMAGE.rawValue != 0,
                                            hasLiveView: operations & GP_OPERATION_CAPTURE_PREVIEW.rawValue != 0,
                                            hasSettings: operations & GP_OPERATION_CONFIG.rawValue != 0))
        }
        return cameras
    }

    /// The driver's account of `model`.
    static func abilities(of model: String, in list: OpaquePointer?, api: camctl_gphoto2) throws(GPhotoError) -> CameraAbilities {
        let index = api.abilities_list_lookup_model(list, model)
        try GPhotoLibrary.check(index, "the camera \(model) is not one libgphoto2 drives")
        var abilities = CameraAbilities()
        try GPhotoLibrary.check(api.abilities_list_get_abilities(list, index, &abilities), "the camera \(model) could not be described")
        return abilities
    }
}
