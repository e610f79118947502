import GStreamer

/// The session's ``ImageSettings`` as the elements of the picture's bin (``ImageLook``), linked
/// between the camera and the tee, and as the property values that change them while running:
///
/// ```
/// identity name=image_look_start
///   ! videocrop name=image_crop ! videoscale ! capsfilter name=image_size   (aspect ratio, zoom)
///   ! videobalance name=image_balance                                      (brightness … hue)
///   ! alpha … (green screen) ! tones, effects, drawing, words
///   ! identity name=image_look_end
/// ```
/// Only what the settings ask for is built: neutral settings build no element at all, and the
/// camera's frames reach the tee as they come. The bin is swapped while running when what it
/// needs changes; tones are rewritten in place at `identity` elements, colour effects are
/// `coloreffects` between conversions to RGB and back. The preview branch turns and mirrors the
/// picture at `videoflip name=preview_orientation`.
struct ImageStage {
    let settings: ImageSettings
    /// The camera's frame size.
    let frameWidth: Int
    let frameHeight: Int
    /// Whether the preview is mirrored: ``ImageSettings/mirrorsPreview``, or its default for the camera.
    let mirrorsPreview: Bool

    init(_ settings: ImageSettings, frameWidth: Int, frameHeight: Int, device: CaptureDevice) {
        self.settings = settings
        self.frameWidth = frameWidth
        self.frameHeight = frameHeight
        // A camera facing the person in front of it is shown as a mirror; one facing away is not.
        let facesPerson = if case .system = device.kind { device.position != .back } else { false }
        mirrorsPreview = settings.mirrorsPreview ?? facesPerson
    }

    /// Whether the stage changes the camera's pixels (mirroring and rotation do not: the preview
    /// turns its own copy, and photos record them as metadata).
    var changesPixels: Bool {
        settings.filters.contains { $0 != .none } || settings.brightness != 0 || settings.contrast != 1
            || settings.saturation != 1 || settings.hue != 0 || settings.zoom != 1 || settings.aspectRatio != nil
            || settings.overlay != nil || !settings.texts.isEmpty || settings.greenScreen != nil
    }

    /// The picture's size after the aspect-ratio crop: what the outputs receive.
    var outputSize: (width: Int, height: Int) {
        guard let ratio = settings.aspectRatio else { return (frameWidth, frameHeight) }
        // The largest even rectangle of the ratio inside the frame.
        if frameWidth * ratio.height > frameHeight * ratio.width {
            return (max(2, frameHeight * ratio.width / ratio.height / 2 * 2), frameHeight)
        }
        return (frameWidth, max(2, frameWidth * ratio.height / ratio.width / 2 * 2))
    }

    /// Pixels cut from each side of the camera's frame: the aspect-ratio crop around the middle,
    /// then the zoom's crop around its centre, kept inside the frame and even (for 4:2:0).
    var cropMargins: (left: Int, right: Int, top: Int, bottom: Int) {
        let (width, height) = outputSize
        let zoomedWidth = max(2, Int((Double(width) / settings.zoom).rounded()) / 2 * 2)
        let zoomedHeight = max(2, Int((Double(height) / settings.zoom).rounded()) / 2 * 2)
        let areaLeft = (frameWidth - width) / 2, areaTop = (frameHeight - height) / 2
        func start(_ center: Double, area: Int, span: Int) -> Int {
            let wanted = Int((center * Double(area) - Double(span) / 2).rounded())
            return min(max(0, wanted), area - span) / 2 * 2
        }
        let left = areaLeft + start(settings.zoomCenter.x, area: width, span: zoomedWidth)
        let top = areaTop + start(settings.zoomCenter.y, area: height, span: zoomedHeight)
        return (left, frameWidth - left - zoomedWidth, top, frameHeight - top - zoomedHeight)
    }

    /// The caps of the picture the outputs receive.
    var outputCaps: String {
        "video/x-raw,format=I420,width=\(outputSize.width),height=\(outputSize.height),pixel-aspect-ratio=1/1"
    }

    /// Whether the picture is cropped (an aspect ratio) or zoomed.
    var cropsPicture: Bool { settings.zoom != 1 || settings.aspectRatio != nil }

    /// Whether the colours are adjusted (brightness, contrast, saturation, hue).
    var adjustsColours: Bool {
        settings.brightness != 0 || settings.contrast != 1 || settings.saturation != 1 || settings.hue != 0
    }

    /// Whether `other`'s picture bin has the same elements as this one's, so a change from one
    /// to the other only sets their properties.
    func buildsSameElements(as other: ImageStage) -> Bool {
        let (mine, theirs) = (settings, other.settings)
        return cropsPicture == other.cropsPicture && adjustsColours == other.adjustsColours
            && mine.filters == theirs.filters && mine.overlay == theirs.overlay && mine.texts == theirs.texts
            && mine.greenScreen == theirs.greenScreen
            // The green screen's background is decoded at the picture's size.
            && (mine.greenScreen == nil || outputSize == other.outputSize)
    }

    /// The picture's bin in gst-launch syntax: starts with ``SessionElement/lookStart`` and ends
    /// with ``SessionElement/lookEnd``; `nil` when the settings change no pixel, so nothing is built.
    var look: String? {
        guard changesPixels else { return nil }
        var elements = ["identity \(SessionElement.lookStart.assignment)"]
        if cropsPicture {
            let crop = cropMargins
            elements.append("videocrop \(SessionElement.crop.assignment) left=\(crop.left) right=\(crop.right) top=\(crop.top) bottom=\(crop.bottom) "
                + "! videoscale ! capsfilter \(SessionElement.size.assignment) caps=\"\(outputCaps)\"")
        }
        if adjustsColours {
            elements.append("videobalance \(SessionElement.balance.assignment) brightness=\(settings.brightness) contrast=\(settings.contrast) "
                + "saturation=\(settings.saturation) hue=\(settings.hue)")
        }
        if let greenScreen = settings.greenScreen { elements.append(greenScreen.keying) }
        for (index, segment) in segments.enumerated() {
            switch segment {
            case .tone: elements.append("identity name=\(SessionElement.tone(index))")
            case .colorEffect(let preset):
                elements.append("videoconvert ! coloreffects preset=\(preset) ! videoconvert ! video/x-raw,format=I420")
            }
        }
        if let overlay = settings.overlay, let place = try? overlayPlacement(overlay) {  // ImageLook refuses one off the picture
            elements.append("videoconvert ! gdkpixbufoverlay \(SessionElement.drawing.assignment) location=\(Element.launchQuoted(overlay.path)) offset-x=\(place.x) "
                + "offset-y=\(place.y) overlay-width=\(place.width) overlay-height=\(place.height) alpha=\(overlay.opacity) "
                + "! videoconvert ! video/x-raw,format=I420")
        }
        for (index, text) in settings.texts.enumerated() {
            elements.append(text.overlay(named: SessionElement.text(index), pictureHeight: outputSize.height))
        }
        elements.append("identity \(SessionElement.lookEnd.assignment)")
        return elements.joined(separator: " ! ")
    }

    /// Where the overlay goes on the outputs' picture.
    ///
    /// - Throws: ``CaptureError/Code/invalidSetting`` when it is off the picture.
    func overlayPlacement(_ overlay: DrawingOverlay) throws(CaptureError) -> (x: Int, y: Int, width: Int, height: Int) {
        try overlay.placement(onWidth: outputSize.width, height: outputSize.height)
    }

    /// The filters as the parts that make them: consecutive tones as one, each effect alone.
    var segments: [ImageFilter.Implementation] {
        var segments: [ImageFilter.Implementation] = []
        for filter in settings.filters where filter != .none {
            switch (filter.implementation, segments.last) {
            case (.tone(let tone), .tone(let previous)?): segments[segments.count - 1] = .tone(previous.followed(by: tone))
            case (let implementation, _): segments.append(implementation)
            }
        }
        return segments
    }

    /// The `videoflip` method that turns the preview by ``ImageSettings/rotation`` after mirroring it.
    var previewOrientationMethod: String {
        ExifOrientation(rotation: settings.rotation, mirrored: mirrorsPreview).showing
    }

    /// The `videoflip` method that shows a frame as the preview does, then mirrored left to right:
    /// the still held while the camera is switched. (A mirror after a turn is the mirror first,
    /// then the opposite turn.)
    var previewFlipMethod: String {
        ExifOrientation(rotation: -settings.rotation, mirrored: !mirrorsPreview).showing
    }

    /// Sets the crop, size and colour properties of a look built for the same elements
    /// (``buildsSameElements(as:)``) to these settings.
    func applyAdjustments(to look: ImageLook) throws(GStreamerError) {
        if let crop = look.crop, let size = look.size {
            let margins = cropMargins
            try crop.setProperty("left", margins.left)
            try crop.setProperty("right", margins.right)
            try crop.setProperty("top", margins.top)
            try crop.setProperty("bottom", margins.bottom)
            try size.setProperty("caps", .string(outputCaps))
        }
        if let balance = look.balance {
            try balance.setProperty("brightness", settings.brightness)
            try balance.setProperty("contrast", settings.contrast)
            try balance.setProperty("saturation", settings.saturation)
            try balance.setProperty("hue", settings.hue)
        }
    }
}
