import GStreamer

extension Photo {
    /// The photo as a viewer shows it, as a JPEG: a JPEG photo as it is (or turned as its EXIF
    /// orientation says), a HEIC photo's thumbnail (turned likewise). What a review puts on the
    /// preview before the photo is kept.
    ///
    /// - Throws: A ``CaptureError`` when the picture cannot be decoded or turned.
    public func shownPicture() async throws(CaptureError) -> [UInt8] {
        let picture = resolvedSettings.codec == .jpeg ? fileData : thumbnailData
        let turn = ExifOrientation(value: orientation)
        guard turn.value != 1, !picture.isEmpty else { return picture }
        return try await Self.turn(picture, by: turn.showing)
    }

    /// A JPEG decoded, turned by a `videoflip` method, and encoded again.
    private static func turn(_ jpeg: [UInt8], by method: String) async throws(CaptureError) -> [UInt8] {
        let transform: AppPipeline
        do {
            transform = try await AppPipeline(describing: """
                appsrc name=input format=time caps=image/jpeg,framerate=1/1 ! jpegdec ! videoflip video-direction=\(ExifOrientation.direction(ofMethod: method)) \
                ! videoconvert ! jpegenc quality=90 ! appsink name=output sync=false
                """, label: "turn")
        } catch {
            throw CaptureError.converting(error, context: "the photo could not be turned for showing")
        }
        defer { Task { await transform.stop() } }
        do {
            let buffer = try jpeg.withUnsafeBytes { bytes in try Buffer(copying: bytes, presentationTime: .zero) }
            let sample = try await transform.transform([buffer], timeout: .seconds(10))[0]
            guard let turned = try sample?.buffer?.bytes() else {
                throw CaptureError(.timeout, "the photo could not be turned for showing within 10 seconds")
            }
            return turned
        } catch {
            throw CaptureError.converting(error, context: "the photo could not be turned for showing")
        }
    }
}
