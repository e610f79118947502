extension CaptureError {
    /// The session's camera was unplugged.
    static func disconnected(_ camera: CaptureDevice) -> CaptureError {
        CaptureError(.interrupted, "\(camera.name) was disconnected; connect it again, or choose another camera")
    }

    /// A system camera stopped sending frames without an error or an end of stream.
    static func stalled(_ camera: CaptureDevice) -> CaptureError {
        CaptureError(.interrupted, "\(camera.name) stopped sending frames (unplugged, or taken by another program); check the camera")
    }

    /// The camera sent its last frame: a video file used as a camera ended, or a camera closed its stream.
    static func ended(_ camera: CaptureDevice) -> CaptureError {
        if case .file(let path) = camera.kind {
            return CaptureError(.interrupted,
                "the video \(path) ended after its last frame; use a longer video, or a picture, which a session shows for as long as it runs")
        }
        return CaptureError(.interrupted, "\(camera.name) stopped sending frames; check the camera, or start the session again")
    }

    /// An interrupted session's camera was not back in time.
    static func notBack(_ camera: CaptureDevice, within timeout: Duration) -> CaptureError {
        CaptureError(.deviceNotFound, "\(camera.name) did not come back within \(timeout); check that it is connected")
    }

    /// The session was stopped while its camera started (a start, a switch or a resume).
    public static let stoppedWhileStarting = CaptureError(.notRunning, "the session was stopped while its camera started")
}
