import GStreamer
import Templates

extension CaptureSession {
    /// The colour of the screen behind the subject as the camera sees it lit (``ScreenColor``),
    /// sampled from a frame taken after any keying is set aside; the picture is keyed as before
    /// again afterwards. Ask with the screen empty, lit as it will be.
    ///
    /// - Throws: ``CaptureError/Code/invalidSetting`` when the picture's edges show no screen of
    ///   one colour; the camera's failures.
    public func sampleScreenColor() async throws(CaptureError) -> RGBColor {
        let keyed = configuration.image
        var unkeyed = keyed
        unkeyed.greenScreen = nil
        if keyed.greenScreen != nil { try await changeImage(to: unkeyed) }
        let frame: Result<Sample, CaptureError>
        do {
            frame = .success(try await photoOutput.nextSettledFrame())
        } catch {
            frame = .failure(error)
        }
        if keyed.greenScreen != nil { try await changeImage(to: keyed) }
        return try ScreenColor.sampled(from: try frame.get())
    }
}
