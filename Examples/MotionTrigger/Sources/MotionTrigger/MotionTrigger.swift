import CameraKit
import CameraOperator
import JSON

/// Takes a photo through an operator whenever a ``MotionDetector`` sees motion, and tells each
/// time as a `motion` event (`{"event": "motion", "score": 0.12, "version": 1}`), which every
/// front end relays as it relays the operator's own.
public struct MotionTrigger: Sendable {
    public let sessionOperator: SessionOperator
    public var settings = PhotoSettings()

    public init(sessionOperator: SessionOperator) {
        self.sessionOperator = sessionOperator
    }

    /// The detector to add to the operator's session: each motion it sees takes a photo.
    public func detector(threshold: Double = 0.08, quietFrames: Int = 15) -> MotionDetector {
        MotionDetector(threshold: threshold, quietFrames: quietFrames) { score in
            // Called on the streaming thread: the photo is asked for by a task of its own.
            Task { try? await fire(score: score) }
        }
    }

    /// Tells of motion of `score` and takes a photo; what the operator answers.
    @discardableResult
    public func fire(score: Double) async throws(OperatorError) -> Outcome {
        try sessionOperator.tell("motion", ["score": .number(score)])
        return try await sessionOperator.perform(.takePhoto(settings))
    }
}
