import Blocking
internal import CSQLite
import FoundationEssentials
import Glibc

/// An open SQLite database: one connection, used from one task at a time.
final class Database {
    private let connection: OpaquePointer
    private let busyTimeout: Duration

    /// Opens (creating if needed) the database file, in WAL mode so readers never block the writer,
    /// waiting up to `busyTimeout` milliseconds for another process's write to finish.
    init(path: String, busyTimeout: Int32 = 30_000) throws(DatabaseError) {
        var handle: OpaquePointer?
        let status = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
        guard status == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(status))
            sqlite3_close(handle)
            throw DatabaseError(code: status, message: message)
        }
        connection = handle
        self.busyTimeout = .milliseconds(Int(busyTimeout))
        sqlite3_busy_timeout(connection, busyTimeout)
        try execute("PRAGMA journal_mode = WAL")
        try execute("PRAGMA synchronous = FULL")
        try execute("PRAGMA foreign_keys = ON")
    }

    /// Opens an existing database only to read it, for a library this process may not write.
    /// When SQLite cannot share its locks there (no write access to the folder for the WAL's
    /// index), the file is read as it stands, as no writer could change it from here.
    init(readingOnly path: String) throws(DatabaseError) {
        let uri = "file:" + Self.uriPath(path)
        var lastError = DatabaseError(code: SQLITE_CANTOPEN, message: "unable to open database file")
        for query in ["?mode=ro", "?mode=ro&immutable=1"] {
            var handle: OpaquePointer?
            let status = sqlite3_open_v2(uri + query, &handle, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, nil)
            if status == SQLITE_OK, let handle {
                // Opening is lazy: the first read says whether the file can be read this way.
                var probe: OpaquePointer?
                let readable = sqlite3_prepare_v2(handle, "SELECT count(*) FROM photos", -1, &probe, nil) == SQLITE_OK
                    && sqlite3_step(probe) == SQLITE_ROW
                if !readable { lastError = DatabaseError(code: sqlite3_errcode(handle), message: String(cString: sqlite3_errmsg(handle))) }
                sqlite3_finalize(probe)
                if readable {
                    connection = handle
                    busyTimeout = .seconds(30)
                    sqlite3_busy_timeout(connection, 30_000)
                    return
                }
            }
            sqlite3_close(handle)
        }
        throw lastError
    }

    deinit {
        sqlite3_close_v2(connection)
    }

    /// Runs statements that return no rows.
    func execute(_ sql: String) throws(DatabaseError) {
        try retryingWhileBusy { () throws(DatabaseError) in
            var message: UnsafeMutablePointer<CChar>?
            let status = sqlite3_exec(connection, sql, nil, nil, &message)
            guard status == SQLITE_OK else {
                let text = message.map { String(cString: $0) } ?? lastErrorMessage
                sqlite3_free(message)
                throw DatabaseError(code: status, message: text, systemError: sqlite3_system_errno(connection))
            }
        }
    }

    /// Runs `body` again while another connection holds a lock SQLite's busy handler does not
    /// wait for (switching to WAL mode, `BEGIN IMMEDIATE` while a writer commits, WAL recovery),
    /// for at most the busy timeout.
    private func retryingWhileBusy<T>(_ body: () throws(DatabaseError) -> T) throws(DatabaseError) -> T {
        let deadline = ContinuousClock.now + busyTimeout
        while true {
            do {
                return try body()
            } catch where error.isBusy && ContinuousClock.now < deadline {
                usleep(useconds_t.random(in: 5_000...25_000))
            }
        }
    }

    /// Runs one statement with parameters and returns its rows.
    @discardableResult
    func query(_ sql: String, _ parameters: [Parameter] = []) throws(DatabaseError) -> [Row] {
        SharedThreads.forbid("the library's SQLite (\(sql.prefix(60)))")
        var statement: OpaquePointer?
        try retryingWhileBusy { () throws(DatabaseError) in
            guard sqlite3_prepare_v2(connection, sql, -1, &statement, nil) == SQLITE_OK, statement != nil else {
                throw DatabaseError(code: sqlite3_errcode(connection), message: lastErrorMessage, systemError: sqlite3_system_errno(connection))
            }
        }
        guard let statement else { return [] }
        defer { sqlite3_finalize(statement) }
        for (index, parameter) in parameters.enumerated() {
            let position = Int32(index + 1)
            switch parameter {
            case .integer(let value): sqlite3_bind_int64(statement, position, sqlite3_int64(value))
            case .real(let value): sqlite3_bind_double(statement, position, value)
            case .text(let value): sqlite3_bind_text(statement, position, value, -1, csqlite_transient())
            case .null: sqlite3_bind_null(statement, position)
            }
        }
        // Named once for all the rows (a later column of the same name wins), which share the names.
        let columns = Dictionary((0..<Int(sqlite3_column_count(statement))).map { (String(cString: sqlite3_column_name(statement, Int32($0))), $0) },
                                 uniquingKeysWith: { _, later in later })
        var rows: [Row] = []
        while true {
            let status = sqlite3_step(statement)
            if status == SQLITE_DONE { return rows }
            guard status == SQLITE_ROW else {
                throw DatabaseError(code: status, message: lastErrorMessage, systemError: sqlite3_system_errno(connection))
            }
            rows.append(Row(statement, columns: columns))
        }
    }

    /// The id of the row the last insert made.
    var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(connection) }

    /// The rows the last statement inserted, changed or deleted.
    var changedRows: Int { Int(sqlite3_changes(connection)) }

    /// Runs `body` in a transaction that takes the write lock at once (`BEGIN IMMEDIATE`), so work
    /// that must not interleave with another process's (a file renamed, then its row) does not.
    func writeTransaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    private var lastErrorMessage: String { String(cString: sqlite3_errmsg(connection)) }

    /// A value bound to a `?` in a statement.
    enum Parameter {
        case integer(Int64)
        case real(Double)
        case text(String)
        case null
    }

    /// One result row, its columns read as they came.
    struct Row {
        /// Each column's place by its name, the same for every row of a statement.
        private let columns: [String: Int]
        private let values: [Value]

        enum Value {
            case integer(Int64), real(Double), text(String), null
        }

        fileprivate init(_ statement: OpaquePointer, columns: [String: Int]) {
            self.columns = columns
            values = (0..<sqlite3_column_count(statement)).map { column in
                switch sqlite3_column_type(statement, column) {
                case SQLITE_INTEGER: .integer(sqlite3_column_int64(statement, column))
                case SQLITE_FLOAT: .real(sqlite3_column_double(statement, column))
                case SQLITE_NULL: .null
                default: .text(String(cString: sqlite3_column_text(statement, column)))
                }
            }
        }

        private func value(_ column: String) -> Value? {
            columns[column].map { values[$0] }
        }

        func integer(_ column: String) -> Int64? {
            if case .integer(let value) = value(column) { return value }
            return nil
        }

        func text(_ column: String) -> String? {
            if case .text(let value) = value(column) { return value }
            return nil
        }
    }
}

/// What SQLite said when a statement failed.
struct DatabaseError: Error {
    /// SQLite's result code (`SQLITE_FULL`, `SQLITE_READONLY`, …).
    let code: Int32
    let message: String

    /// The `errno` of the system call that failed under SQLite, when one did (0 otherwise).
    var systemError: Int32 = 0

    var isDiskFull: Bool { code & 0xff == SQLITE_FULL || (code & 0xff == SQLITE_IOERR && [ENOSPC, EDQUOT].contains(systemError)) }
    var isReadOnly: Bool { [SQLITE_READONLY, SQLITE_CANTOPEN, SQLITE_PERM, SQLITE_AUTH].contains(code & 0xff) }
    var isBusy: Bool { [SQLITE_BUSY, SQLITE_LOCKED].contains(code & 0xff) }
    var isCorrupt: Bool { [SQLITE_CORRUPT, SQLITE_NOTADB].contains(code & 0xff) }
}

extension Database {
    /// `path` as the path of a `file:` URI: every byte but letters, digits, `-._~/` percent-encoded.
    static func uriPath(_ path: String) -> String {
        let kept = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~/".utf8)
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        for byte in path.utf8 {
            if kept.contains(byte) {
                bytes.append(byte)
            } else {
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
