import Synchronization

/// Encoders started the first time one of a kind is asked for, then kept until ``removeAll()``:
/// concurrent first requests of a kind share one start, and a start that fails is forgotten, so
/// the next request tries again.
final class StartedOnFirstUse<Key: Hashable & Sendable, Encoder: Sendable>: Sendable {
    private let started = Mutex<[Key: Task<Encoder, any Error>]>([:])

    /// The encoder of `key`, started by `start` unless one was already.
    func encoder(for key: Key, start: @escaping @Sendable () async throws -> Encoder) async throws -> Encoder {
        let starting = self.starting(key, start)
        do {
            return try await starting.value
        } catch {
            _ = started.withLock { $0.removeValue(forKey: key) }
            throw error
        }
    }

    /// Starts the encoder of `key` by `start` unless one was already, without waiting for it: its
    /// first request then finds it started, or starting.
    func startEarly(_ key: Key, start: @escaping @Sendable () async throws -> Encoder) {
        _ = starting(key, start)
    }

    private func starting(_ key: Key, _ start: @escaping @Sendable () async throws -> Encoder) -> Task<Encoder, any Error> {
        started.withLock { encoders in
            if let existing = encoders[key] { return existing }
            let task = Task { try await start() }
            encoders[key] = task
            return task
        }
    }

    /// How many encoders have been started (or are starting).
    var count: Int { started.withLock { $0.count } }

    /// Forgets every encoder; returns those that started, to be stopped.
    func removeAll() async -> [Encoder] {
        let tasks = started.withLock { encoders in
            defer { encoders.removeAll() }
            return Array(encoders.values)
        }
        var encoders: [Encoder] = []
        for task in tasks {
            if let encoder = try? await task.value { encoders.append(encoder) }
        }
        return encoders
    }
}
