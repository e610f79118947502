import FileSystem
import FoundationEssentials
import Glibc

extension PhotoLibrary {
    /// Refuses `path` as what a command writes (an `--output`, a copy, an export, a sheet, a
    /// movie's copy, a collected photo) when it would replace a file of a photo library: one that
    /// exists in a library's folder or its `thumbnails/`, `spool/`, `recordings/`, `renditions/` or
    /// `raw/`, or is named as the library names its own (its index and journal, photos, thumbnails,
    /// spooled frames, RAW files),
    /// links resolved. Any library counts, not only the one the command uses: a library is a
    /// folder that holds `library.sqlite`. A new file of another name there is let be, as it is
    /// never indexed. The one check every writer of outside destinations calls.
    ///
    /// - Throws: the refusal, naming the library (``LibraryError/init(_:)`` words it as cannot create).
    public static func checkDestination(_ path: String) throws(DurableFile.WriteError) {
        // A link is written through: its target is what would be replaced.
        let target = realpath(path, nil).map { resolved in
            defer { free(resolved) }
            return String(cString: resolved)
        } ?? path
        guard let folder = libraryFolder(holding: target) else { return }
        let name = URL(fileURLWithPath: target).lastPathComponent
        let owned = name.hasPrefix("library.sqlite") || isPhotoFile(name) || isThumbnail(name) || isSpooled(name) || isRawFile(name) || isTemporary(name)
        var status = stat()
        guard owned || lstat(target, &status) == 0 else { return }
        throw DurableFile.WriteError(path: path, refusal: .libraryFile(folder: folder))
    }

    /// The library whose folder (or one of its subfolders) holds `path`, the folders' links
    /// resolved; `nil` when none.
    private static func libraryFolder(holding path: String) -> String? {
        let url = URL(fileURLWithPath: path)
        let parent = url.deletingLastPathComponent().path
        guard let resolved = realpath(parent.isEmpty ? "." : parent, nil) else { return nil }
        defer { free(resolved) }
        var folder = URL(fileURLWithPath: String(cString: resolved))
        for _ in 0..<2 {
            if FileManager.default.fileExists(atPath: folder.path + "/library.sqlite") { return folder.path }
            guard subfolders.contains(folder.lastPathComponent) else { return nil }
            folder.deleteLastPathComponent()
        }
        return nil
    }
}
