import CameraKit
import CameraOperator
import HTTPServer
import OperatorWire
import PhotoLibrary

/// A failure as the HTTP API answers it: a status and one sentence, sent as the error record a
/// fleet node publishes too: `{"error": "…", "event": "error", "id": null, "status": N, "version": 1}`.
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
        JSONBody.response(EventRecord.error(id: nil, status: status, message: message), status: status)
    }

    /// An operator's failure: what it says, with the status that fits who can mend it.
    init(_ error: RequestError) {
        self.init(error.kind == .notFound ? 404 : 400, error.message)
    }

    /// An operator's failure: its sentence, its remedy in the API's words, and the status of its class.
    init(_ error: OperatorError) {
        switch error {
        case .capture(let failure): self.init(failure)
        case .delivery(.library(let failure)): self.init(failure)
        default: self.init(error.failureClass.status, Self.words(error))
        }
    }

    /// An operator's failure with its remedy in the API's terms: the server's library, the
    /// request's actions.
    private static func words(_ error: OperatorError) -> String {
        switch error.remedy {
        case .endOrWait(let flow)?: sentence(busy: flow)
        case .keepALibrary?, .keepALibraryOrACopy?: error.sentence + ": the server keeps no library"
        case .capture?, .takePhotosFirst?, .stopTheMovieFirst?, .startAMovieFirst?, nil: error.message
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

    /// A camera's failure: the status of its class, as the operator's vocabulary gives it.
    init(_ error: CaptureError) {
        self.init(OperatorError.capture(error).failureClass.status, Self.sentence(error))
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
