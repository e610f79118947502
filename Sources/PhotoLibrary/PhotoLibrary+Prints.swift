import FoundationEssentials

/// How many copies of each picture were printed (a served booth's guests print their own, at most a
/// limit of each), kept in the index so a restart does not start the count again.
extension PhotoLibrary {
    /// Counts `copies` more of photo `id` as printed, when they keep its copies within `limit`;
    /// `false` (and nothing counted) when they would not.
    public func countPrinted(_ copies: Int, of id: Int64, limit: Int) throws(LibraryError) -> Bool {
        guard !isReadOnly else { throw LibraryError(.permissionDenied, "the library \(folder) may not be written, so prints cannot be counted") }
        do {
            try database.query("INSERT OR IGNORE INTO prints (photo_id, copies) VALUES (?, 0)", [.integer(id)])
            try database.query("UPDATE prints SET copies = copies + ? WHERE photo_id = ? AND copies + ? <= ?",
                               [.integer(Int64(copies)), .integer(id), .integer(Int64(copies)), .integer(Int64(limit))])
            return database.changedRows == 1
        } catch {
            throw LibraryError(error, index: indexPath)
        }
    }

    /// How many copies were printed in all, of every picture.
    public func printedCopies() throws(LibraryError) -> Int {
        do {
            return Int(try database.query("SELECT COALESCE(SUM(copies), 0) AS copies FROM prints").first?.integer("copies") ?? 0)
        } catch {
            throw LibraryError(error, index: indexPath)
        }
    }

    /// Takes back `copies` counted for photo `id` whose print could not start.
    public func uncountPrinted(_ copies: Int, of id: Int64) throws(LibraryError) {
        do {
            try database.query("UPDATE prints SET copies = max(0, copies - ?) WHERE photo_id = ?", [.integer(Int64(copies)), .integer(id)])
        } catch {
            throw LibraryError(error, index: indexPath)
        }
    }
}
