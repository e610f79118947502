import CGPhoto2
import Glibc

/// What went wrong with a DSLR or mirrorless camera: one sentence saying what happened and what
/// to do, and libgphoto2's result code (0 when libgphoto2 itself is missing).
public struct GPhotoError: Error, Sendable, CustomStringConvertible {
    public let code: Int32
    public let message: String
    public var description: String { message }

    /// An error with libgphoto2's result `code` and the sentence that says it.
    public init(code: Int32, _ message: String) {
        (self.code, self.message) = (code, message)
    }

    /// The sentence for libgphoto2's result `result` while `doing` (such as "the photo could not
    /// be taken") on the camera at `port`.
    init(result: Int32, doing: String, port: String?) {
        let at = port.map { " at \($0)" } ?? ""
        let remedy: String
        switch result {
        case GP_ERROR_IO_USB_CLAIM, GP_ERROR_IO_LOCK:
            let holders = Self.portHolders()
            remedy = "another program holds the camera's USB port" + (holders.isEmpty ? "" : " (\(holders.joined(separator: ", ")))")
                + "; end it (on a desktop: systemctl --user stop gvfs-gphoto2-volume-monitor, then pkill gvfsd-gphoto2) and try again"
        case GP_ERROR_CAMERA_BUSY:
            remedy = "the camera is busy (writing a photo to its card, or showing a menu); wait a moment and try again"
        case GP_ERROR_NO_SPACE:
            remedy = "the camera's card is full; make room on it, or let camctl delete each photo after it is downloaded"
        case GP_ERROR_MODEL_NOT_FOUND, GP_ERROR_IO_USB_FIND:
            remedy = "no such camera is connected\(at); camctl devices lists the cameras there are"
        case GP_ERROR_TIMEOUT:
            remedy = "the camera did not answer in time\(at); check that it is on and awake, and its cable"
        case GP_ERROR_NOT_SUPPORTED:
            remedy = "this camera cannot do that"
        case GP_ERROR_IO, GP_ERROR_IO_READ, GP_ERROR_IO_WRITE, GP_ERROR_IO_UPDATE, GP_ERROR_IO_INIT:
            remedy = "the camera could not be reached\(at); check that it is on and awake, and its cable"
        default:
            let said = GPhotoLibrary.shared.flatMap { $0.api.result_as_string(result) }.map { String(cString: $0) } ?? "error \(result)"
            remedy = "libgphoto2 says: \(said)"
        }
        self.init(code: result, "\(doing): \(remedy)")
    }

    /// The programs that take cameras' USB ports on a desktop, as they run now (their names and pids).
    static func portHolders() -> [String] {
        guard let folder = opendir("/proc") else { return [] }
        defer { closedir(folder) }
        var holders: [String] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let pid = Int32(name), let program = firstLine(of: "/proc/\(pid)/comm") else { continue }
            if program.hasPrefix("gvfsd-gphoto2") || program.hasPrefix("gvfs-gphoto2-vo") || program == "gphoto2" {
                holders.append("\(program), pid \(pid)")
            }
        }
        return holders
    }

    /// A small file's first line (a process's name in `/proc`).
    private static func firstLine(of path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = read(descriptor, &buffer, buffer.count)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].prefix { $0 != 0x0a }, as: UTF8.self)
    }
}
