import CameraKit
import CameraOperator
import HTTPServer
import JSON
import OperatorWire
import PhotoLibrary

/// A failure as the HTTP API answers it: a status and one sentence, sent as
/// `{"error": "…", "status": N}`.
struct APIError: Error, Sendable {
    let status: Int
    let message: String

    init(_ status: Int, _ message: String) {
        (self.status, self.message) = (status, message)
    }

    static func notFound(_ what: String = "there is nothing here") -> APIError { APIError(404, what) }

    static func badRequest(_ message: String) -> APIError { APIError(400, message) }

    /// The response carrying it.
    var response: HTTPResponse {
        JSONBody.response(["error": .string(message), "status": .integer(Int64(status))] as JSONValue, status: status)
    }

    /// An operator's failure: what it says, with the status that fits who can mend it.
    init(_ error: RequestError) {
        self.init(error.kind == .notFound ? 404 : 400, error.message)
    }

    init(_ error: OperatorError) {
        switch error {
        case .capture(let failure): self.init(failure)
        case .delivery(.library(let failure)): self.init(failure)
        case .delivery(.destination(_, let failure, _)): self.init(500, "the photo could not be written: \(failure.reason)")
        case .delivery: self.init(500, "the photo could not be delivered")
        case .report(let failure): self.init(500, "the photo was saved, but could not be reported: \(failure)")
        case .nothingToCompose: self.init(409, "there are no photos to compose; take some first")
        case .nothingToReview: self.init(409, "there is no photo to review; take one first")
        case .nowhereToKeep: self.init(409, "the composed picture has nowhere to go: the server keeps no library")
        case .alreadyRecording: self.init(409, "a movie is being recorded already; stop it first")
        case .notRecording: self.init(409, "no movie is being recorded; start one first")
        case .nowhereToRecord: self.init(409, "the movie has nowhere to go: the server keeps no library")
        case .busy(let flow): self.init(409, Self.sentence(busy: flow))
        case .cancelled: self.init(503, "the request was given up before its turn came; nothing was done")
        }
    }

    /// A flow on the stage in the API's words: how to end it.
    private static func sentence(busy flow: Flow) -> String {
        switch flow {
        case .booth, .capture: flow.busySentence + " with {\"action\": \"end_run\"}"
        case .review: flow.busySentence + " with {\"action\": \"keep\"} or {\"action\": \"discard\"}"
        case .countdown, .showing: flow.busySentence + " with {\"action\": \"cut_short\"}"
        default: flow.busySentence
        }
    }

    init(_ error: CaptureError) {
        let status = switch error.code {
        case .invalidSetting, .formatUnavailable: 400
        case .notRunning, .interrupted, .noCamera, .deviceNotFound, .deviceBusy: 503
        case .timeout: 504
        case .movieNotWritten: 507
        default: 500
        }
        self.init(status, Self.sentence(error))
    }

    /// A capture failure in the API's words: a remedy that is a field of the request says so.
    private static func sentence(_ error: CaptureError) -> String {
        let words = switch error.remedy {
        case .recordWithoutSound?: "send \"audio\": \"none\""
        case .recordWithoutSoundOrAnotherMicrophone?: "send \"audio\": \"none\", or name another microphone in \"audio\""
        case .recordWithoutSoundOrTestTone?: "send \"audio\": \"none\", or \"audio\": \"test\" for a tone"
        default: error.remedy?.description
        }
        return words.map { "\(error.message); \($0)" } ?? error.message
    }

    init(_ error: LibraryError) {
        let status = switch error.kind {
        case .notFound: 404
        case .diskFull: 507
        case .permissionDenied: 403
        default: 500
        }
        self.init(status, error.message)
    }
}
