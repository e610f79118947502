import Blocking
import CMosquitto
import FoundationEssentials
import Glibc
import Synchronization

/// An MQTT client (libmosquitto underneath, on a network thread of its own): it connects in the
/// background and, while the broker is away, connects again with a growing delay, to the next of
/// its brokers when it has several (a cluster's servers); it subscribes again after each
/// connection, and hands every message to `onMessage` on that thread.
///
/// ```swift
/// let client = try MQTTClient(MQTTClient.Options(host: "127.0.0.1", port: 1883, clientID: "node-a"),
///                             onMessage: { message in print(message.topic) })
/// client.subscribe("camctl/fleet/command")
/// client.publish("camctl/fleet/a/status", Array("{}".utf8), retain: true)
/// client.stop()
/// ```
public final class MQTTClient: Sendable {
    /// A broker's host and port.
    public struct Address: Sendable, Equatable {
        public var host: String
        public var port: Int

        public init(host: String, port: Int) {
            (self.host, self.port) = (host, port)
        }
    }

    /// Where and how to connect.
    public struct Options: Sendable {
        public var host: String
        public var port: Int
        /// Brokers tried in turn after `host`:`port` when the connection is lost or cannot be made:
        /// the other servers of a broker cluster.
        public var otherBrokers: [Address] = []
        public var clientID: String
        /// Whether the broker keeps the client's session while it is away (its subscriptions, and
        /// the QoS 1 messages for it, delivered when it is back, through any server of a cluster).
        public var keepsSession = false
        public var username: String?
        public var password: String?
        /// A CA certificate file: connect with TLS, checking the broker's certificate against it.
        public var certificateAuthority: String?
        /// What the broker publishes, retained, when the connection is lost without a goodbye.
        public var lastWill: (topic: String, payload: [UInt8])?
        /// Seconds between keep-alive pings; the broker declares the client gone after 1.5 times this.
        public var keepAlive = 5

        public init(host: String, port: Int = 1883, clientID: String) {
            (self.host, self.port, self.clientID) = (host, port, clientID)
        }

        /// Every broker, the first first.
        public var brokers: [Address] { [Address(host: host, port: port)] + otherBrokers }
    }

    /// A message received.
    public struct Message: Sendable {
        public let topic: String
        public let payload: [UInt8]
        public let isRetained: Bool
    }

    private let handle: Handle
    private let context: Unmanaged<Context>
    private let mosquitto: Mosquitto
    private let network: NetworkThread

    /// Starts connecting (and keeps at it) with `options`.
    ///
    /// - Throws: ``MQTTError`` when libmosquitto is not installed, or the options are refused (a
    ///   certificate file that cannot be used).
    public init(_ options: Options, onMessage: @escaping @Sendable (Message) -> Void,
                onConnection: @escaping @Sendable (_ connected: Bool, _ reason: String) -> Void = { _, _ in }) throws(MQTTError) {
        let mosquitto = try Mosquitto.functions()
        let context = Unmanaged.passRetained(Context(onMessage: onMessage, onConnection: onConnection, mosquitto: mosquitto))
        guard let raw = mosquitto.client_new(options.clientID, !options.keepsSession, context.toOpaque()) else {
            context.release()
            throw MQTTError("the MQTT client could not be made")
        }
        do {
            if let will = options.lastWill {
                try Self.check(mosquitto, will.payload.withUnsafeBytes { mosquitto.will_set(raw, will.topic, Int32($0.count), $0.baseAddress, 1, true) },
                               "the last will could not be set")
            }
            if let username = options.username {
                try Self.check(mosquitto, mosquitto.username_pw_set(raw, username, options.password), "the user name could not be set")
            }
            if let authority = options.certificateAuthority {
                try Self.check(mosquitto, mosquitto.tls_set(raw, authority, nil, nil, nil, nil), "TLS with \(authority) could not be set up")
            }
        } catch {
            mosquitto.destroy(raw)
            context.release()
            throw error
        }
        mosquitto.connect_callback_set(raw) { mosquitto, context, code in
            guard let context, let mosquitto else { return }
            Unmanaged<Context>.fromOpaque(context).takeUnretainedValue().connected(mosquitto, code: code)
        }
        mosquitto.disconnect_callback_set(raw) { _, context, code in
            guard let context else { return }
            Unmanaged<Context>.fromOpaque(context).takeUnretainedValue().disconnected(code: code)
        }
        mosquitto.message_callback_set(raw) { _, context, message in
            guard let context, let message = message?.pointee, let topic = message.topic else { return }
            let payload = message.payload.map { [UInt8](UnsafeRawBufferPointer(start: $0, count: Int(message.payloadlen))) } ?? []
            Unmanaged<Context>.fromOpaque(context).takeUnretainedValue()
                .onMessage(Message(topic: String(cString: topic), payload: payload, isRetained: message.retain))
        }
        _ = mosquitto.threaded_set(raw, true)  // publish and subscribe come from other threads than the network's
        handle = Handle(raw: raw)
        self.context = context
        self.mosquitto = mosquitto
        network = NetworkThread(raw: raw, brokers: options.brokers, keepAlive: options.keepAlive, mosquitto: mosquitto, context: context)
        network.start()
    }

    /// Subscribes to a topic filter (`+` and `#` wildcards), now and after every reconnection.
    public func subscribe(_ filter: String) {
        let context = self.context.takeUnretainedValue()
        context.filters.withLock { $0.append(filter) }
        handle.use { mosquitto.subscribe($0, nil, filter, 1) == MOSQ_ERR_SUCCESS.rawValue }
    }

    /// Publishes a message (QoS 1: at least once); `false` when it could not be queued.
    @discardableResult
    public func publish(_ topic: String, _ payload: [UInt8], retain: Bool = false) -> Bool {
        handle.use { raw in
            payload.withUnsafeBytes { mosquitto.publish(raw, nil, topic, Int32($0.count), $0.baseAddress, 1, retain) } == MOSQ_ERR_SUCCESS.rawValue
        }
    }

    /// Says goodbye (so the last will is not published), stops the network thread, and frees the
    /// client: at once, or, when called on the network thread itself (from a handler), once the
    /// thread has left libmosquitto's loop.
    public func stop() {
        guard handle.take() != nil else { return }
        network.stop()
    }

    deinit {
        stop()
    }

    private static func check(_ mosquitto: Mosquitto, _ code: Int32, _ message: String) throws(MQTTError) {
        guard code == MOSQ_ERR_SUCCESS.rawValue else { throw MQTTError("\(message): \(mosquitto.text(of: code))") }
    }
}

/// libmosquitto's functions, from the library loaded and set up once, when the first client is made.
@dynamicMemberLookup
private struct Mosquitto: @unchecked Sendable {
    // @unchecked Sendable: function pointers into a library that stays loaded, never changed.
    private let api: camctl_mosquitto

    private static let loaded: Mosquitto? = {
        var api = camctl_mosquitto()
        guard camctl_mosquitto_load(&api) != 0 else { return nil }
        _ = api.lib_init()
        return Mosquitto(api: api)
    }()

    static func functions() throws(MQTTError) -> Mosquitto {
        guard let loaded else { throw MQTTError("libmosquitto is not installed; install the libmosquitto1 package") }
        return loaded
    }

    subscript<Function>(dynamicMember path: KeyPath<camctl_mosquitto, Function>) -> Function {
        api[keyPath: path]
    }

    /// An error code's text.
    func text(of code: Int32) -> String {
        api.strerror(code).map { String(cString: $0) } ?? "error \(code)"
    }

    /// A refused connection's reason.
    func connectionRefusal(_ code: Int32) -> String {
        api.connack_string(code).map { String(cString: $0) } ?? "refused (\(code))"
    }
}

/// What the network thread's callbacks reach: the handlers, the topic filters to subscribe to
/// again after a reconnection, and whether the client is connected now.
private final class Context: Sendable {
    let onMessage: @Sendable (MQTTClient.Message) -> Void
    let onConnection: @Sendable (Bool, String) -> Void
    let filters = Mutex<[String]>([])
    let isConnected = Atomic(false)
    /// Whether the loss of the connection (or the failure to make one) was told since the last
    /// connection: each outage is told once, however many attempts it takes.
    private let toldLoss = Atomic(false)
    private let mosquitto: Mosquitto

    init(onMessage: @escaping @Sendable (MQTTClient.Message) -> Void, onConnection: @escaping @Sendable (Bool, String) -> Void,
         mosquitto: Mosquitto) {
        (self.onMessage, self.onConnection, self.mosquitto) = (onMessage, onConnection, mosquitto)
    }

    func connected(_ client: OpaquePointer, code: Int32) {
        guard code == 0 else {
            onConnection(false, mosquitto.connectionRefusal(code))
            return
        }
        isConnected.store(true, ordering: .relaxed)
        toldLoss.store(false, ordering: .relaxed)
        for filter in filters.withLock({ $0 }) { _ = mosquitto.subscribe(client, nil, filter, 1) }
        onConnection(true, "connected")
    }

    /// A connection lost; one the client ended itself (code 0, by ``MQTTClient/stop()``) is no loss to tell of.
    func disconnected(code: Int32) {
        isConnected.store(false, ordering: .relaxed)
        guard code != 0 else { return }
        failed(mosquitto.text(of: code))
    }

    /// A connection lost or not made: told, once an outage.
    func failed(_ reason: String) {
        isConnected.store(false, ordering: .relaxed)
        guard !toldLoss.exchange(true, ordering: .relaxed) else { return }
        onConnection(false, reason)
    }
}

/// The client's network thread: libmosquitto's loop, run by hand so that a connection lost, or
/// one that cannot be made or does not come within ``attemptLimit``, is tried again after a
/// growing delay (a quarter of a second, doubling to 8 s, back to the start once connected) at
/// the next of the client's brokers.
///
/// `@unchecked Sendable`: `raw` is used by the thread alone but for libmosquitto's thread-safe
/// calls made through the client's ``Handle`` and the `disconnect` that ``stop()`` makes, and is
/// freed once, after the thread is done; `thread` and `started` are set before it can be stopped.
private final class NetworkThread: @unchecked Sendable {
    private let raw: OpaquePointer
    private let brokers: [MQTTClient.Address]
    private let keepAlive: Int
    private let mosquitto: Mosquitto
    /// The client's context, which the client keeps alive (retained) until the thread is done with it.
    private let context: Unmanaged<Context>
    private let stopping = Atomic(false)
    private var thread = pthread_t()
    private var started = false
    /// Whether the thread frees the client as it ends (stopped from within, by a handler).
    private let freesItself = Atomic(false)

    /// How long a connection may take to be made before the next broker is tried.
    static let attemptLimit = Duration.seconds(5)

    init(raw: OpaquePointer, brokers: [MQTTClient.Address], keepAlive: Int, mosquitto: Mosquitto, context: Unmanaged<Context>) {
        (self.raw, self.brokers, self.keepAlive, self.mosquitto, self.context) = (raw, brokers, keepAlive, mosquitto, context)
    }

    func start() {
        let box = Unmanaged.passRetained(self)
        let made = pthread_create(&thread, nil, { box in
            let network = Unmanaged<NetworkThread>.fromOpaque(box!).takeRetainedValue()
            network.run()
            return nil
        }, box.toOpaque())
        started = made == 0
        if made != 0 {
            box.release()
            stopping.store(true, ordering: .relaxed)
            context.takeUnretainedValue().failed("the MQTT client's network thread could not start (\(String(cString: strerror(made))))")
        }
    }

    /// Says goodbye (so the last will is not published), waits for the thread to send it (a second
    /// at most) and end, then frees the client; from the thread itself (a handler), leaves that to
    /// the thread, which does it once it is out of libmosquitto's loop.
    func stop() {
        // Stopping before the goodbye: the loop that finds the connection gone after it must not
        // take that for a connection lost, to be told and tried again.
        stopping.store(true, ordering: .relaxed)
        _ = mosquitto.disconnect(raw)
        if started, pthread_equal(pthread_self(), thread) != 0 {
            freesItself.store(true, ordering: .relaxed)
            pthread_detach(thread)
            return
        }
        if started { pthread_join(thread, nil) }
        free()
    }

    /// Frees libmosquitto's client and lets the client's context go.
    private func free() {
        mosquitto.destroy(raw)
        context.release()
    }

    private func run() {
        defer { if freesItself.load(ordering: .relaxed) { free() } }
        var index = 0
        var delay = Duration.milliseconds(250)
        var attempt = connect(to: index)
        let context = self.context.takeUnretainedValue()
        var stopDeadline: ContinuousClock.Instant?
        while true {
            if stopping.load(ordering: .relaxed) {
                // The goodbye (and what was queued before it) goes out before the thread ends.
                let deadline = stopDeadline ?? ContinuousClock.now + .seconds(1)
                stopDeadline = deadline
                guard context.isConnected.load(ordering: .relaxed), ContinuousClock.now < deadline else { break }
                _ = mosquitto.loop(raw, 50, 1)
                continue
            }
            let result = mosquitto.loop(raw, 250, 1)
            if context.isConnected.load(ordering: .relaxed) {
                delay = .milliseconds(250)
                if result == MOSQ_ERR_SUCCESS.rawValue { continue }
            } else if result == MOSQ_ERR_SUCCESS.rawValue, ContinuousClock.now - attempt < Self.attemptLimit {
                continue  // connecting
            }
            guard !stopping.load(ordering: .relaxed) else { continue }
            let broker = brokers[index]
            context.failed(result == MOSQ_ERR_SUCCESS.rawValue
                           ? "\(broker.host):\(broker.port) did not answer within \(Self.attemptLimit.components.seconds) s"
                           : "\(broker.host):\(broker.port): \(mosquitto.text(of: result))")
            sleep(for: delay)
            delay = min(delay * 2, .seconds(8))
            index = (index + 1) % brokers.count
            attempt = connect(to: index)
        }
    }

    /// Starts connecting to broker `index`; when that fails at once, says why.
    private func connect(to index: Int) -> ContinuousClock.Instant {
        let broker = brokers[index]
        SharedThreads.forbid("resolving and connecting to \(broker.host)")
        let result = mosquitto.connect_async(raw, broker.host, Int32(broker.port), Int32(keepAlive))
        if result != MOSQ_ERR_SUCCESS.rawValue { context.takeUnretainedValue().failed("\(broker.host):\(broker.port): \(mosquitto.text(of: result))") }
        return ContinuousClock.now
    }

    /// Sleeps `duration`, or less when the client is stopped meanwhile.
    private func sleep(for duration: Duration) {
        let end = ContinuousClock.now + duration
        while !stopping.load(ordering: .relaxed), ContinuousClock.now < end {
            usleep(20_000)
        }
    }
}

/// The client's handle, used under a lock and freed once.
///
/// `@unchecked Sendable`: `raw` is read and cleared only under `lock`; libmosquitto's calls used
/// through it (subscribe, publish) are safe beside its network thread.
private final class Handle: @unchecked Sendable {
    private var raw: OpaquePointer?
    private let lock = Mutex(())

    init(raw: OpaquePointer) {
        self.raw = raw
    }

    /// Runs `body` with the handle, under the lock; `false` once the client is stopped.
    @discardableResult
    func use(_ body: (OpaquePointer) -> Bool) -> Bool {
        lock.withLock { _ in raw.map(body) ?? false }
    }

    /// The handle, once; `nil` after.
    func take() -> OpaquePointer? {
        lock.withLock { _ in
            defer { raw = nil }
            return raw
        }
    }
}

/// Why an MQTT client could not be made.
public struct MQTTError: Error, Sendable, CustomStringConvertible {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
