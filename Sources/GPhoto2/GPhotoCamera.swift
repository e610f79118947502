import CGPhoto2
import Dispatch
import Glibc

/// A file on a camera's card: the folder and name the camera gave it.
public struct GPhotoFile: Sendable, Equatable {
    public let folder: String
    public let name: String

    public init(folder: String, name: String) {
        (self.folder, self.name) = (folder, name)
    }
}

/// An open DSLR or mirrorless camera, driven through libgphoto2: photos the camera takes, their
/// files downloaded and deleted, live view pictures and settings.
///
/// Every call runs on a serial queue of the camera's own, so libgphoto2 (which a camera takes one
/// call at a time) never blocks Swift's shared threads; the camera is closed by ``close()``.
public final class GPhotoCamera: TetheredCamera, @unchecked Sendable {
    // @unchecked Sendable: `camera` and `context` are used only by work given to `queue`, which
    // runs one piece at a time; the rest is immutable.
    public let model: String
    public let port: String
    private let api: camctl_gphoto2
    private let camera: UnsafeMutablePointer<Camera>
    private let context: OpaquePointer
    private let queue: DispatchQueue
    private var isClosed = false

    private init(model: String, port: String, api: camctl_gphoto2, camera: UnsafeMutablePointer<Camera>, context: OpaquePointer, queue: DispatchQueue) {
        (self.model, self.port, self.api, self.camera, self.context, self.queue) = (model, port, api, camera, context, queue)
    }

    /// Opens the camera `model` at `port` (as ``GPhotoCameras/detected()`` names them).
    ///
    /// - Throws: ``GPhotoError``: libgphoto2 missing, no such camera, its port held by another
    ///   program, the camera not answering.
    public static func open(model: String, port: String) async throws(GPhotoError) -> GPhotoCamera {
        let queue = DispatchQueue(label: "camctl.gphoto2")
        let opened: Result<GPhotoCamera, GPhotoError> = await withCheckedContinuation { continuation in
            queue.async {
                continuation.resume(returning: Result { () throws(GPhotoError) in try openHere(model: model, port: port, queue: queue) })
            }
        }
        return try opened.get()
    }

    private static func openHere(model: String, port: String, queue: DispatchQueue) throws(GPhotoError) -> GPhotoCamera {
        let api = try GPhotoLibrary.loaded()
        let doing = "the camera \(model) could not be opened"
        guard let context = api.context_new() else { throw GPhotoError(code: GP_ERROR_NO_MEMORY, "\(doing): libgphoto2 could not start") }
        var made: UnsafeMutablePointer<Camera>?
        do throws(GPhotoError) {
            try GPhotoLibrary.check(api.camera_new(&made), doing)
            guard let camera = made else { throw GPhotoError(code: GP_ERROR_NO_MEMORY, "\(doing): libgphoto2 could not start") }
            var abilitiesList: OpaquePointer?
            try GPhotoLibrary.check(api.abilities_list_new(&abilitiesList), doing)
            defer { _ = api.abilities_list_free(abilitiesList) }
            try GPhotoLibrary.check(api.abilities_list_load(abilitiesList, context), doing)
            try GPhotoLibrary.check(api.camera_set_abilities(camera, try GPhotoCameras.abilities(of: model, in: abilitiesList, api: api)), doing)
            var ports: OpaquePointer?
            try GPhotoLibrary.check(api.port_info_list_new(&ports), doing)
            defer { _ = api.port_info_list_free(ports) }
            try GPhotoLibrary.check(api.port_info_list_load(ports), doing)
            let index = api.port_info_list_lookup_path(ports, port)
            try GPhotoLibrary.check(index, doing, port: port)
            var info: OpaquePointer?
            try GPhotoLibrary.check(api.port_info_list_get_info(ports, index, &info), doing, port: port)
            try GPhotoLibrary.check(api.camera_set_port_info(camera, info), doing, port: port)
            try GPhotoLibrary.check(api.camera_init(camera, context), doing, port: port)
            return GPhotoCamera(model: model, port: port, api: api, camera: camera, context: context, queue: queue)
        } catch {
            if let made { _ = api.camera_unref(made) }
            api.context_unref(context)
            throw error
        }
    }

    /// Runs `work` on the camera's queue; a closed camera is refused.
    private func run<T: Sendable>(_ doing: String, _ work: @escaping @Sendable () throws(GPhotoError) -> T) async throws(GPhotoError) -> T {
        let result: Result<T, GPhotoError> = await withCheckedContinuation { continuation in
            queue.async { [self] in
                continuation.resume(returning: Result { () throws(GPhotoError) in
                    guard !isClosed else { throw GPhotoError(code: GP_ERROR, "\(doing): the camera was closed") }
                    return try work()
                })
            }
        }
        return try result.get()
    }

    /// Fires the camera's shutter: a photo at its full resolution, with its own lens, settings and
    /// flash, written to its card; returns where, and when it was fired. (RAW+JPEG cameras name one of the pair; the
    /// other is told by ``newFiles(quietFor:atMost:)``.)
    public func capture() async throws(GPhotoError) -> GPhotoShot {
        try await run("the camera did not take the photo") { [self] () throws(GPhotoError) in
            var path = CameraFilePath()
            let firedAt = GPhotoShot.now()
            try GPhotoLibrary.check(api.camera_capture(camera, GP_CAPTURE_IMAGE, &path, context), "the camera did not take the photo", port: port)
            return GPhotoShot(file: GPhotoFile(folder: Self.text(of: path.folder), name: Self.text(of: path.name)), firedAt: firedAt)
        }
    }

    /// The files the camera tells of from now (a RAW+JPEG camera tells the second file of a pair
    /// this way): its events read until it has been quiet for `quiet` milliseconds or says its
    /// capture is complete, for at most `limit` milliseconds (a camera that never goes quiet, such
    /// as one telling of every change of its light meter, cannot hold the caller).
    public func newFiles(quietFor quiet: Int32, atMost limit: Int32) async throws(GPhotoError) -> [GPhotoFile] {
        try await run("the camera's events could not be read") { [self] () throws(GPhotoError) in
            var files: [GPhotoFile] = []
            let started = GPhotoShot.now()
            var wait = min(quiet, limit)
            while true {
                var type = GP_EVENT_UNKNOWN
                var data: UnsafeMutableRawPointer?
                try GPhotoLibrary.check(api.camera_wait_for_event(camera, wait, &type, &data, context), "the camera's events could not be read", port: port)
                defer { free(data) }
                if type == GP_EVENT_FILE_ADDED, let path = data?.assumingMemoryBound(to: CameraFilePath.self).pointee {
                    files.append(GPhotoFile(folder: Self.text(of: path.folder), name: Self.text(of: path.name)))
                }
                if type == GP_EVENT_TIMEOUT || type == GP_EVENT_CAPTURE_COMPLETE { return files }
                let left = limit - Int32((GPhotoShot.now() - started) * 1000)
                guard left > 0 else { return files }
                wait = min(quiet, left)
            }
        }
    }

    /// The file's bytes as the camera wrote them, at most `limit` of them.
    public func download(_ file: GPhotoFile, limit: Int = 512 * 1_048_576) async throws(GPhotoError) -> [UInt8] {
        let doing = "\(file.name) could not be downloaded from the camera"
        return try await run(doing) { [self] () throws(GPhotoError) in
            try withFile(doing) { (cameraFile) throws(GPhotoError) in
                try GPhotoLibrary.check(api.camera_file_get(camera, file.folder, file.name, GP_FILE_TYPE_NORMAL, cameraFile, context), doing, port: port)
                return try Self.bytes(of: cameraFile, api: api, limit: limit, doing: doing)
            }
        }
    }

    /// Deletes the file from the camera's card.
    public func delete(_ file: GPhotoFile) async throws(GPhotoError) {
        let doing = "\(file.name) could not be deleted from the camera's card"
        try await run(doing) { [self] () throws(GPhotoError) in
            try GPhotoLibrary.check(api.camera_file_delete(camera, file.folder, file.name, context), doing, port: port)
        }
    }

    /// One live view picture (a JPEG), as the camera shows it in its viewfinder.
    ///
    /// - Throws: ``GPhotoError`` with code `GP_ERROR_NOT_SUPPORTED` for a camera without live view.
    public func preview() async throws(GPhotoError) -> [UInt8] {
        let doing = "the camera's live view could not be read"
        return try await run(doing) { [self] () throws(GPhotoError) in
            try withFile(doing) { (cameraFile) throws(GPhotoError) in
                try GPhotoLibrary.check(api.camera_capture_preview(camera, cameraFile, context), doing, port: port)
                return try Self.bytes(of: cameraFile, api: api, limit: 32 * 1_048_576, doing: doing)
            }
        }
    }

    /// The camera's settings, each with its value and what it may be set to.
    public func settings() async throws(GPhotoError) -> [GPhotoSetting] {
        try await run("the camera's settings could not be read") { [self] () throws(GPhotoError) in
            try withConfiguration("the camera's settings could not be read") { (window) throws(GPhotoError) in
                GPhotoSetting.all(in: window, api: api)
            }
        }
    }

    /// Sets the setting `name` to `value`, checked against what the camera offers for it.
    ///
    /// - Throws: ``GPhotoError`` naming the setting's values when `value` is not one of them, or
    ///   when the camera has no such setting or refuses it.
    public func set(_ name: String, to value: String) async throws(GPhotoError) -> GPhotoSetting {
        let doing = "the camera's \(name) could not be set"
        return try await run(doing) { [self] () throws(GPhotoError) in
            try withConfiguration(doing) { (window) throws(GPhotoError) in
                var widget: OpaquePointer?
                guard api.widget_get_child_by_name(window, name, &widget) >= 0, let widget,
                      let setting = GPhotoSetting(widget, api: api), setting.kind != .section else {
                    throw GPhotoError(code: GP_ERROR_BAD_PARAMETERS, "\(doing): the camera has no setting \(name); camctl camera-settings lists them")
                }
                try setting.assign(value, to: widget, api: api, doing: doing)
                try GPhotoLibrary.check(api.camera_set_config(camera, window, context), doing, port: port)
                return GPhotoSetting(widget, api: api) ?? setting
            }
        }
    }

    /// Closes the camera; later calls are refused.
    public func close() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async { [self] in
                if !isClosed {
                    isClosed = true
                    _ = api.camera_exit(camera, context)
                    _ = api.camera_unref(camera)
                    api.context_unref(context)
                }
                continuation.resume()
            }
        }
    }

    deinit {
        // A camera no one closed is closed now; nothing else can use it any more.
        if !isClosed {
            _ = api.camera_exit(camera, context)
            _ = api.camera_unref(camera)
            api.context_unref(context)
        }
    }

    /// Runs `body` with a new camera file, freed after.
    private func withFile<T>(_ doing: String, _ body: (OpaquePointer) throws(GPhotoError) -> T) throws(GPhotoError) -> T {
        var made: OpaquePointer?
        try GPhotoLibrary.check(api.file_new(&made), doing)
        guard let file = made else { throw GPhotoError(code: GP_ERROR_NO_MEMORY, "\(doing): out of memory") }
        defer { _ = api.file_unref(file) }
        return try body(file)
    }

    /// Runs `body` with the camera's configuration window, freed after.
    private func withConfiguration<T>(_ doing: String, _ body: (OpaquePointer) throws(GPhotoError) -> T) throws(GPhotoError) -> T {
        var made: OpaquePointer?
        try GPhotoLibrary.check(api.camera_get_config(camera, &made, context), doing, port: port)
        guard let window = made else { throw GPhotoError(code: GP_ERROR_NOT_SUPPORTED, "\(doing): the camera has no settings") }
        defer { _ = api.widget_free(window) }
        return try body(window)
    }

    /// A camera file's bytes, refused beyond `limit`.
    private static func bytes(of file: OpaquePointer, api: camctl_gphoto2, limit: Int, doing: String) throws(GPhotoError) -> [UInt8] {
        var data: UnsafePointer<CChar>?
        var size: UInt = 0
        try GPhotoLibrary.check(api.file_get_data_and_size(file, &data, &size), doing)
        guard Int(size) <= limit else { throw GPhotoError(code: GP_ERROR_FILE_EXISTS, "\(doing): it is larger than \(limit / 1_048_576) MB") }
        guard let data, size > 0 else { throw GPhotoError(code: GP_ERROR_CORRUPTED_DATA, "\(doing): the camera sent an empty file") }
        return [UInt8](UnsafeRawBufferPointer(start: data, count: Int(size)))
    }

    /// A fixed-size C string field as a Swift string, read up to its first zero and never past its end.
    static func text<Field>(of field: Field) -> String {
        withUnsafeBytes(of: field) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
}
