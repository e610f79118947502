import Foundation

/// A temporary folder, removed when the test ends.
public final class TemporaryFolder {
    /// The folder.
    public let url: URL

    /// Makes a new, empty folder.
    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("camctl-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The path of a file in the folder.
    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Writes a file of `text` (UTF-8) in the folder, such as a description file; its path.
    public func file(_ name: String, holding text: String) throws -> String {
        let file = path(name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        return file
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}

/// A small tmpfs mounted on a temporary folder for the test (needs root), unmounted when it goes.
public final class TemporaryMount {
    public let folder: TemporaryFolder

    /// Mounts a tmpfs with mount options such as `size=256k` or `ro,size=64k`.
    public init(options: String) throws {
        folder = try TemporaryFolder()
        let mounted = try ChildProcess.runToEnd("mount", ["-t", "tmpfs", "-o", options, "tmpfs", folder.url.path])
        guard mounted.status == 0 else { throw MountFailure(message: mounted.standardError) }
    }

    /// The path of a file in the mount.
    public func path(_ name: String) -> String { folder.path(name) }

    public struct MountFailure: Error {
        public let message: String
    }

    deinit { _ = try? ChildProcess.runToEnd("umount", [folder.url.path]) }
}
