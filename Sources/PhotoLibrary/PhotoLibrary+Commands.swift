import FoundationEssentials

extension PhotoLibrary {
    /// Remembers a command's id (a fleet node's) until `expiry`, so that it runs once however
    /// often it comes, restarts of the node included; `false` when it was remembered already.
    /// Ids whose expiry has passed are forgotten first: a command that old is refused for its age.
    public func remember(commandID id: String, until expiry: Date, now: Date = Date()) throws(LibraryError) -> Bool {
        guard !isReadOnly else { throw LibraryError(.permissionDenied, "the library \(folder) may not be written, so commands cannot be remembered") }
        do {
            try database.query("DELETE FROM commands WHERE expires_at < ?", [.real(now.timeIntervalSince1970)])
            try database.query("INSERT OR IGNORE INTO commands (id, expires_at) VALUES (?, ?)",
                               [.text(id), .real(expiry.timeIntervalSince1970)])
            return database.changedRows == 1
        } catch {
            throw LibraryError(error, index: indexPath)
        }
    }
}
