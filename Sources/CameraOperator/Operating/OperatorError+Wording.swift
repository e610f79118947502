import CameraKit

/// How an operator's failure is told, once for every front end: a sentence of what happened, the
/// remedy (which each front end words in its own terms, its options or its request fields), and
/// its class, which each transport turns into its code (an HTTP status, an exit code).
extension OperatorError {
    /// Who can mend a failure, and how: what a transport's code says.
    public enum FailureClass: Sendable, Equatable {
        /// The request asks for something the operator's state does not allow now (409).
        case conflict
        /// The camera cannot serve it now: stopped, lost, busy (503).
        case unavailable
        /// The camera or a pipeline took too long (504).
        case timeout
        /// A movie could not be kept: the disk is full or failing (507).
        case storage
        /// Something the asker cannot mend failed (500).
        case `internal`
        /// The request's own values are wrong (400).
        case badRequest
        /// The asker went away before its turn came: nothing was done (503 on the network).
        case cancelled
    }

    /// What would mend a failure, for a front end to say in its own terms.
    public enum Remedy: Sendable, Equatable, CustomStringConvertible {
        /// Take photos before composing or reviewing them.
        case takePhotosFirst
        /// Stop the movie being recorded first.
        case stopTheMovieFirst
        /// Start a movie first.
        case startAMovieFirst
        /// Keep a library: movies are kept there.
        case keepALibrary
        /// Keep a library, or name a copy: a composition goes to one of them.
        case keepALibraryOrACopy
        /// End the flow holding the stage, or wait for it (a booth, a capture run, a review, a
        /// countdown or a showing).
        case endOrWait(Flow)
        /// The camera's own remedy.
        case capture(CaptureError.Remedy)

        public var description: String {
            switch self {
            case .takePhotosFirst: "take some first"
            case .stopTheMovieFirst: "stop it first"
            case .startAMovieFirst: "start one first"
            case .keepALibrary: "keep a library"
            case .keepALibraryOrACopy: "keep a library, or name a copy"
            case .endOrWait: "wait for it to end, or end it"
            case .capture(let remedy): remedy.description
            }
        }
    }

    /// What happened, in one sentence without its remedy ("there are no photos to compose").
    public var sentence: String {
        switch self {
        case .capture(let failure): failure.message
        case .delivery(.library(let failure)): failure.message
        case .delivery(.destination(_, let failure, _)): "the photo could not be written: \(failure.reason)"
        case .delivery: "the photo could not be delivered"
        case .report(let failure): "the photo was saved, but could not be reported: \(failure)"
        case .nothingToCompose: "there are no photos to compose"
        case .nothingToReview: "there is no photo to review"
        case .nowhereToKeep: "the composed picture has nowhere to go"
        case .alreadyRecording: "a movie is being recorded already"
        case .notRecording: "no movie is being recorded"
        case .nowhereToRecord: "the movie has nowhere to go"
        case .busy(let flow): flow.busySentence
        case .cancelled: "the action was given up before its turn came; nothing was done"
        case .reservedEventName(let name): name.isEmpty ? "an event needs a name" : "\"\(name)\" is the name of one of camctl's own events"
        }
    }

    /// What would mend it, when something would.
    public var remedy: Remedy? {
        switch self {
        case .capture(let failure): failure.remedy.map(Remedy.capture)
        case .nothingToCompose, .nothingToReview: .takePhotosFirst
        case .nowhereToKeep: .keepALibraryOrACopy
        case .nowhereToRecord: .keepALibrary
        case .alreadyRecording: .stopTheMovieFirst
        case .notRecording: .startAMovieFirst
        case .busy(let flow): .endOrWait(flow)
        case .delivery, .report, .cancelled, .reservedEventName: nil
        }
    }

    /// Who can mend it.
    public var failureClass: FailureClass {
        switch self {
        case .capture(let failure):
            switch failure.code {
            case .invalidSetting, .formatUnavailable: .badRequest
            case .notRunning, .interrupted, .noCamera, .deviceNotFound, .deviceBusy: .unavailable
            case .timeout: .timeout
            case .movieNotWritten: .storage
            default: .internal
            }
        case .delivery, .report: .internal
        case .reservedEventName: .badRequest
        case .nothingToCompose, .nothingToReview, .nowhereToKeep, .alreadyRecording, .notRecording, .nowhereToRecord, .busy: .conflict
        case .cancelled: .cancelled
        }
    }

    /// The sentence with the remedy in its own words, for an embedder with nothing of its own to
    /// say ("there are no photos to compose; take some first").
    public var message: String {
        guard let remedy, !Self.remedyIsInSentence(remedy) else { return sentence }
        return "\(sentence); \(remedy)"
    }

    /// Whether the sentence already says the remedy (a busy flow's says how to end it).
    private static func remedyIsInSentence(_ remedy: Remedy) -> Bool {
        if case .endOrWait = remedy { true } else { false }
    }
}

extension OperatorError.FailureClass {
    /// The status an error record carries for it on every transport (HTTP's numbers).
    public var status: Int {
        switch self {
        case .badRequest: 400
        case .conflict: 409
        case .internal: 500
        case .unavailable, .cancelled: 503
        case .timeout: 504
        case .storage: 507
        }
    }
}
