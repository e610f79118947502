import Glibc

/// Files inside a folder reached without following any symbolic link below it: the folder is
/// opened as named (links in its own path are the caller's choice), then each part of the path
/// inside it with `O_NOFOLLOW`, so a link put in a subfolder's or a file's place is refused
/// instead of leading elsewhere. Files are opened non-blocking, so a FIFO never waits.
public enum ConfinedFile {
    /// Opens the regular file at `relativePath` inside `folder` to read it (and, with `writing`,
    /// to change it in place); the caller closes the descriptor.
    ///
    /// - Throws: ``RegularFile/ReadError``: missing, a link (`notRegular("a symbolic link")`), a
    ///   folder, FIFO, socket or device, or unreadable.
    public static func open(_ relativePath: String, in folder: String, writing: Bool = false) throws(RegularFile.ReadError) -> Int32 {
        let path = folder + "/" + relativePath
        let (parent, name) = try openParent(of: relativePath, in: folder, path: path)
        defer { close(parent) }
        let descriptor = openat(parent, name, (writing ? O_RDWR : O_RDONLY) | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else { throw RegularFile.ReadError(path: path, code: errno) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let failure = errno
            close(descriptor)
            throw RegularFile.ReadError(path: path, kind: .system(failure))
        }
        do {
            try RegularFile.requireRegular(status, path: path)
        } catch {
            close(descriptor)
            throw error
        }
        return descriptor
    }

    /// The whole of the regular file at `relativePath` inside `folder`, refused when it is larger
    /// than `limit` bytes.
    public static func contents(of relativePath: String, in folder: String, limit: Int = 256 * 1_048_576) throws(RegularFile.ReadError) -> [UInt8] {
        let descriptor = try open(relativePath, in: folder)
        defer { close(descriptor) }
        return try RegularFile.contents(of: descriptor, path: folder + "/" + relativePath, limit: limit)
    }

    /// The names in the folder at `relativePath` inside `folder` (`nil`: `folder` itself), `.`
    /// and `..` left out; empty when there is no such folder or a link stands in its place.
    public static func names(in relativePath: String? = nil, of folder: String) -> [String] {
        let descriptor: Int32
        if let relativePath {
            guard let opened = try? openFolder(relativePath, in: folder, path: folder + "/" + relativePath) else { return [] }
            descriptor = opened
        } else {
            descriptor = Glibc.open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard descriptor >= 0 else { return [] }
        }
        guard let directory = fdopendir(descriptor) else {
            close(descriptor)
            return []
        }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    /// Removes the regular file at `relativePath` inside `folder`; anything else there (a link, a
    /// folder, a FIFO) is left. Returns whether a file was removed.
    ///
    /// - Throws: ``DurableFile/WriteError`` when a regular file is there and cannot be removed.
    @discardableResult
    public static func remove(_ relativePath: String, in folder: String) throws(DurableFile.WriteError) -> Bool {
        let path = folder + "/" + relativePath
        guard let (parent, name) = try? openParent(of: relativePath, in: folder, path: path) else { return false }
        defer { close(parent) }
        var status = stat()
        guard fstatat(parent, name, &status, AT_SYMLINK_NOFOLLOW) == 0, status.st_mode & S_IFMT == S_IFREG else { return false }
        guard unlinkat(parent, name, 0) == 0 else {
            if errno == ENOENT { return false }
            throw DurableFile.WriteError(path: path, code: errno)
        }
        return true
    }

    /// What is at `relativePath` inside `folder`, a link not followed; `nil` when nothing is, or a
    /// link stands in a folder's place on the way.
    public static func status(of relativePath: String, in folder: String) -> stat? {
        guard let (parent, name) = try? openParent(of: relativePath, in: folder, path: folder + "/" + relativePath) else { return nil }
        defer { close(parent) }
        var status = stat()
        return fstatat(parent, name, &status, AT_SYMLINK_NOFOLLOW) == 0 ? status : nil
    }

    /// The folder a relative path's last part is in, opened, and that part's name.
    private static func openParent(of relativePath: String, in folder: String, path: String) throws(RegularFile.ReadError) -> (Int32, String) {
        var parts = relativePath.split(separator: "/").map(String.init)
        guard let name = parts.popLast(), name != "..", name != "." else { throw RegularFile.ReadError(path: path, kind: .missing) }
        let parent = try openFolder(parts.joined(separator: "/"), in: folder, path: path)
        return (parent, name)
    }

    /// Opens `folder`, then each part of `relativePath` below it as a folder that is not a link.
    private static func openFolder(_ relativePath: String, in folder: String, path: String) throws(RegularFile.ReadError) -> Int32 {
        var current = Glibc.open(folder.isEmpty ? "." : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard current >= 0 else { throw RegularFile.ReadError(path: path, code: errno) }
        for part in relativePath.split(separator: "/") {
            guard part != "..", part != "." else {
                close(current)
                throw RegularFile.ReadError(path: path, kind: .missing)
            }
            let next = openat(current, String(part), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            let failure = errno
            close(current)
            guard next >= 0 else { throw RegularFile.ReadError(path: path, code: failure) }
            current = next
        }
        return current
    }
}
