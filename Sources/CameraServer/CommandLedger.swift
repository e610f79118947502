import FoundationEssentials
import PhotoLibrary
import Synchronization

/// The commands a fleet node has taken, so that none runs twice, however often it comes: with a
/// library, each id is kept in the library's index until the command expires, restarts of the
/// node included; without one, the last ``rememberedInMemory`` ids, for as long as the node runs.
final class CommandLedger: Sendable {
    private enum Store {
        case library(PhotoLibrary)
        case memory(ids: Set<String>, order: [String])
    }

    /// Guarded: the library's connection is used by one command at a time, on the MQTT client's thread.
    private let store: Mutex<Store>

    /// How many ids a node without a library remembers.
    static let rememberedInMemory = 4096

    /// How far ahead a command may expire: its id is kept that long.
    static let longestLifetime: Double = 86_400

    /// Keeps ids in the library in `folder`, or in memory when there is none.
    init(library folder: String?) throws(LibraryError) {
        store = Mutex(try folder.map { folder throws(LibraryError) in .library(try PhotoLibrary(folder: folder)) } ?? .memory(ids: [], order: []))
    }

    /// Notes a command; `false` when it was taken before.
    ///
    /// - Throws: A ``LibraryError`` when the library cannot keep the id: the command must not run then.
    func isNew(_ id: String, expiringAt until: Date) throws(LibraryError) -> Bool {
        try store.withLock { store throws(LibraryError) -> Bool in
            switch store {
            case .library(let library):
                return try library.remember(commandID: id, until: until)
            case .memory(var ids, var order):
                guard ids.insert(id).inserted else { return false }
                order.append(id)
                if order.count > Self.rememberedInMemory { ids.remove(order.removeFirst()) }
                store = .memory(ids: ids, order: order)
                return true
            }
        }
    }
}
