import GPhoto2

extension CaptureSession {
    /// The running DSLR's own settings (ISO, aperture, shutter speed, …), each with its value and
    /// what it may be set to.
    ///
    /// - Throws: ``CaptureError/Code/invalidSetting`` when the session's camera is no DSLR or
    ///   mirrorless camera; the camera's failures.
    public func cameraSettings() async throws(CaptureError) -> [GPhotoSetting] {
        let camera = try runningGPhotoCamera()
        do {
            return try await camera.settings()
        } catch {
            throw CaptureError(error)
        }
    }

    /// Sets the running DSLR's setting `name` to `value`, checked against what the camera offers;
    /// returns it as the camera then says it.
    ///
    /// - Throws: ``CaptureError/Code/invalidSetting`` for a camera that is no DSLR, a setting it
    ///   does not have or a value it does not take (naming those it does); its failures.
    public func setCameraSetting(_ name: String, to value: String) async throws(CaptureError) -> GPhotoSetting {
        let camera = try runningGPhotoCamera()
        do {
            return try await camera.set(name, to: value)
        } catch {
            throw CaptureError(error)
        }
    }

    /// The DSLR the session runs on. (Closed under a call when the session stops meanwhile: that
    /// call is refused by the camera itself.)
    private func runningGPhotoCamera() throws(CaptureError) -> any TetheredCamera {
        guard let source = running?.gphoto2 else {
            if case .gphoto2 = configuration.device.kind {
                throw CaptureError(.notRunning, "the camera is not connected now (the session waits for it to come back); try again once it is")
            }
            throw CaptureError(.invalidSetting, "the camera is no DSLR or mirrorless camera running now; a webcam's settings are V4L2 controls (camctl devices --controls)")
        }
        return source.camera
    }
}
