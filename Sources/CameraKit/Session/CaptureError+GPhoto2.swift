import CGPhoto2
import GPhoto2

extension CaptureError {
    /// A DSLR or mirrorless camera's failure, as the session says it: its port held or the camera
    /// busy is a busy camera, one that does not answer a time-out, one gone a camera not found.
    public init(_ error: GPhotoError) {
        let code: Code = switch error.code {
        case GP_ERROR_IO_USB_CLAIM, GP_ERROR_IO_LOCK, GP_ERROR_CAMERA_BUSY: .deviceBusy
        case GP_ERROR_TIMEOUT: .timeout
        case GP_ERROR_NOT_SUPPORTED, GP_ERROR_BAD_PARAMETERS: .invalidSetting
        case GP_ERROR_NO_SPACE: .pipeline
        default: .deviceNotFound
        }
        self.init(code, error.message)
    }
}
