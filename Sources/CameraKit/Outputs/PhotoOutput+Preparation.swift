// Readying the encoders of photos known to come, before the first is asked for.

extension PhotoOutput {
    /// Readies the JPEG encoders photos with these settings need (the photo's, or a HEIC's proxy,
    /// and the thumbnail's) before the first is taken, as AVCapturePhotoOutput's prepared settings
    /// do: a starting session starts them beside its camera, a running one at once, so the first
    /// photo does not wait for them. A HEIC encoded at once still starts its HEVC encoder on first
    /// use. Kept for every later start until set again; an empty list readies nothing.
    public func setPreparedPhotoSettings(_ settings: [PhotoSettings]) {
        preparedSettings.withLock { $0 = settings }
        if let running = runningEncoders {
            startEncoders(for: settings, on: running.encoders, framing: running.framing)
        }
    }

    /// Starts, without waiting, the JPEG encoders photos with `settings` use under `framing`:
    /// the photo's own (a JPEG, or the proxy of a HEIC finished later) and its thumbnail's.
    func startEncoders(for settings: [PhotoSettings], on encoders: PhotoEncoders, framing: Framing) {
        for setting in settings {
            let resolved = framing.turningPixels(framing.resolve(setting), of: setting)
            let turns = resolved.pixelTurn != nil
            if resolved.thumbnailWidth > 0 { encoders.startJPEGEarly(StillEncoder.Shape(scales: true, turns: turns)) }
            let encodesJPEG = resolved.codec == .jpeg || setting.defersHEVCProcessing
            if encodesJPEG, !framing.takesCameraJPEGs { encoders.startJPEGEarly(StillEncoder.Shape(scales: false, turns: turns)) }
        }
    }
}
