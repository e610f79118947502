import Formatting
import FoundationEssentials
import MQTTClient

/// A photo on every online node of a fleet, of the frame its camera took nearest one instant:
/// the command sent to the whole fleet, and each node's answer as it came.
public struct SynchronizedCapture: Sendable {
    /// The instant asked, seconds since 1970.
    public let instant: Double
    /// The nodes asked: those online when the command was sent.
    public let nodes: [String]
    /// Each node's answer; a node missing here did not answer in time.
    public let answers: [String: FleetWatch.Answer]

    /// How far from the asked instant a node's frame may be.
    public static let farthestFrame: Double = 5

    /// Why a capture could not be sent.
    public enum Failure: Error, Sendable {
        case noNodeOnline
        case unsent
    }

    /// Sends a capture `delay` seconds from now to the fleet's online `nodes`, and waits for their
    /// answers, at most `timeout` seconds after the instant.
    ///
    /// - Throws: ``Failure`` when no node is online, or the broker did not take the command.
    public static func run(fleet: String, nodes: [FleetWatch.Node], delay: Double, timeout: Double, client: MQTTClient,
                           watch: FleetWatch) async throws(Failure) -> SynchronizedCapture {
        let online = nodes.filter(\.isOnline).map(\.name)
        guard !online.isEmpty else { throw .noNodeOnline }
        let instant = Date().timeIntervalSince1970 + delay
        let command = NodeCommand.capture(at: instant)
        guard client.publish("camctl/\(fleet)/command", command.payload) else { throw .unsent }
        let deadline = ContinuousClock.now + .seconds(delay + timeout)
        while ContinuousClock.now < deadline, watch.answers(to: command.id).count < online.count {
            try? await Task.sleep(for: .milliseconds(50))
        }
        var answers = watch.answers(to: command.id)
        for (node, answer) in answers {
            // A frame is the nearest the node's camera took: within a frame interval, a few
            // seconds at the slowest. One further off is no answer to this capture.
            if case .photo(let capturedAt, _, _) = answer, abs(capturedAt - instant) > farthestFrame {
                answers[node] = .refused(String(printf: "its photo's frame was %.0f s from the asked instant", capturedAt - instant))
            }
        }
        return SynchronizedCapture(instant: instant, nodes: online, answers: answers)
    }

    /// The frame instants of the photos taken, by node, in the nodes' order.
    public var photos: [(node: String, capturedAt: Double, path: String, fileName: String)] {
        nodes.compactMap { node in
            guard case .photo(let capturedAt, let path, let fileName)? = answers[node] else { return nil }
            return (node, capturedAt, path, fileName)
        }
    }

    /// The latest frame instant less the earliest, in milliseconds.
    public var skewMilliseconds: Double {
        let taken = photos.map(\.capturedAt)
        return ((taken.max() ?? 0) - (taken.min() ?? 0)) * 1000
    }

    /// The nodes asked that took no photo: those that refused, and those that did not answer.
    public var missing: (refused: [String], silent: [String]) {
        let missing = nodes.filter { if case .photo? = answers[$0] { false } else { true } }
        return (missing.filter { answers[$0] != nil }, missing.filter { answers[$0] == nil })
    }
}
