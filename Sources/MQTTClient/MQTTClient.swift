import CMosquitto
import FoundationEssentials
import Glibc
import Synchronization

/// An MQTT client (libmosquitto underneath, on a network thread of its own): it connects in the
/// background and reconnects with a growing delay while the broker is away, subscribes again
/// after each connection, and hands every message to `onMessage` on that thread.
///
/// ```swift
/// let client = try MQTTClient(MQTTClient.Options(host: "127.0.0.1", port: 1883, clientID: "node-a"),
///                             onMessage: { message in print(message.topic) })
/// client.subscribe("camctl/fleet/command")
/// client.publish("camctl/fleet/a/status", Array("{}".utf8), retain: true)
/// client.stop()
/// ```
public final class MQTTClient: Sendable {
    /// Where and how to connect.
    public struct Options: Sendable {
        public var host: String
        public var port: Int
        public var clientID: String
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

    /// Starts connecting (and keeps at it) with `options`.
    ///
    /// - Throws: ``MQTTError`` when libmosquitto is not installed, or the options are refused (a
    ///   certificate file that cannot be used).
    public init(_ options: Options, onMessage: @escaping @Sendable (Message) -> Void,
                onConnection: @escaping @Sendable (_ connected: Bool, _ reason: String) -> Void = { _, _ in }) throws(MQTTError) {
        let mosquitto = try Mosquitto.functions()
        let context = Unmanaged.passRetained(Context(onMessage: onMessage, onConnection: onConnection, mosquitto: mosquitto))
        guard let raw = mosquitto.client_new(options.clientID, true, context.toOpaque()) else {
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
        _ = mosquitto.reconnect_delay_set(raw, 1, 30, true)
        _ = mosquitto.connect_async(raw, options.host, Int32(options.port), Int32(options.keepAlive))
        _ = mosquitto.loop_start(raw)
        handle = Handle(raw: raw)
        self.context = context
        self.mosquitto = mosquitto
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

    /// Says goodbye (so the last will is not published), stops the network thread, and frees the client.
    public func stop() {
        guard let raw = handle.take() else { return }
        _ = mosquitto.disconnect(raw)
        _ = mosquitto.loop_stop(raw, false)
        mosquitto.destroy(raw)
        context.release()
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

/// What the network thread's callbacks reach: the handlers and the topic filters to subscribe to
/// again after a reconnection.
private final class Context: Sendable {
    let onMessage: @Sendable (MQTTClient.Message) -> Void
    let onConnection: @Sendable (Bool, String) -> Void
    let filters = Mutex<[String]>([])
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
        for filter in filters.withLock({ $0 }) { _ = mosquitto.subscribe(client, nil, filter, 1) }
        onConnection(true, "connected")
    }

    /// A connection lost; one the client ended itself (code 0, by ``MQTTClient/stop()``) is no loss to tell of.
    func disconnected(code: Int32) {
        guard code != 0 else { return }
        onConnection(false, mosquitto.text(of: code))
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
