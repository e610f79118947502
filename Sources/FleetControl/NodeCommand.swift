import FoundationEssentials
import OperatorWire

/// A command a fleet's controller sends its nodes, as they read it: an id new for each command,
/// the instant (seconds since 1970) after which a node leaves it undone, and what to do, in the
/// words of the nodes' API (`"action": "capture"`, `"action": "photos"`).
public struct NodeCommand: Encodable, Sendable, Equatable {
    public let id: String
    public let action: String
    public let expiresAt: Double
    /// A capture's instant, seconds since 1970: each node takes the frame nearest it.
    public let at: Double?
    /// A listing's page: the photos with ids above `after`, at most `limit`.
    public let after: Int64?
    public let limit: Int?

    /// A capture of the frame nearest `instant` on every node; left undone a second after it.
    public static func capture(at instant: Double) -> NodeCommand {
        NodeCommand(id: "capture-\(UUID().uuidString)", action: "capture", expiresAt: instant + 1, at: instant, after: nil, limit: nil)
    }

    /// A node's photos with ids above `after`, at most `limit` of them; left undone `lifetime` seconds from now.
    public static func photos(after: Int64, limit: Int, lifetime: Double) -> NodeCommand {
        NodeCommand(id: "photos-\(UUID().uuidString)", action: "photos", expiresAt: Date().timeIntervalSince1970 + lifetime,
                     at: nil, after: after, limit: limit)
    }

    /// The command as one JSON object.
    public var payload: [UInt8] { WireJSON.bytes(self) }

    enum CodingKeys: String, CodingKey {
        case id, action, at, after, limit
        case expiresAt = "expires_at"
    }
}
