// Readying the encoders of photos known to come, before the first is asked for.

extension PhotoOutput {
    /// Readies what photos with these settings need (their encoders) before the first is taken,
    /// as AVCapturePhotoOutput's prepared settings do: a starting session starts them beside its
    /// camera, a running one at once, so the first photo does not wait for them. Kept for every
    /// later start until set again; an empty list readies nothing (each encoder then starts on
    /// its first use).
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
            var resolved = ResolvedPhotoSettings(setting, width: framing.width, height: framing.height,
                                                 sessionRotation: framing.rotation, mirrored: framing.mirrorsPhotos)
            if framing.turnsPhotoPixels, !setting.usesHEVCTiles { resolved = resolved.turningPixels() }
            let turns = resolved.pixelTurn != nil
            if resolved.thumbnailWidth > 0 { encoders.startJPEGEarly(StillEncoder.Shape(scales: true, turns: turns)) }
            let encodesJPEG = resolved.codec == .jpeg || setting.defersHEVCProcessing
            if encodesJPEG, !framing.takesCameraJPEGs { encoders.startJPEGEarly(StillEncoder.Shape(scales: false, turns: turns)) }
        }
    }
}
