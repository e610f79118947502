import CameraKit
import CameraOperator
import Testing

/// An operator's failure said once: the sentence, the remedy and the class every front end and
/// embedder words it from.
@Suite("An operator's failures worded once")
struct OperatorErrorWordingTests {
    @Test("Each failure has one sentence, a remedy where one helps, and the class of who can mend it; the message joins them")
    func wording() {
        let cases: [(OperatorError, String, OperatorError.Remedy?, OperatorError.FailureClass)] = [
            (.nothingToCompose, "there are no photos to compose", .takePhotosFirst, .conflict),
            (.nothingToReview, "there is no photo to review", .takePhotosFirst, .conflict),
            (.nowhereToKeep, "the composed picture has nowhere to go", .keepALibraryOrACopy, .conflict),
            (.nowhereToRecord, "the movie has nowhere to go", .keepALibrary, .conflict),
            (.alreadyRecording, "a movie is being recorded already", .stopTheMovieFirst, .conflict),
            (.notRecording, "no movie is being recorded", .startAMovieFirst, .conflict),
            (.busy(.booth), Flow.booth.busySentence, .endOrWait(.booth), .conflict),
            (.cancelled, "the action was given up before its turn came; nothing was done", nil, .cancelled),
            (.capture(CaptureError(.timeout, "the camera gave no frame")), "the camera gave no frame", nil, .timeout),
            (.capture(CaptureError(.deviceBusy, "the camera is held by another program")), "the camera is held by another program", nil, .unavailable),
            (.capture(CaptureError(.invalidSetting, "zoom must be from 1 to 8")), "zoom must be from 1 to 8", nil, .badRequest),
        ]
        for (error, sentence, remedy, failureClass) in cases {
            #expect(error.sentence == sentence, "\(error)")
            #expect(error.remedy == remedy, "\(error)")
            #expect(error.failureClass == failureClass, "\(error)")
        }
        #expect(OperatorError.nothingToCompose.message == "there are no photos to compose; take some first")
        #expect(OperatorError.alreadyRecording.message == "a movie is being recorded already; stop it first")
        // A busy flow's sentence already says how to end it: it is not said twice.
        #expect(OperatorError.busy(.review).message == Flow.review.busySentence)
        #expect(OperatorError.cancelled.message == OperatorError.cancelled.sentence)
    }
}
