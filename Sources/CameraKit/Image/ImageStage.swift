import GStreamer

/// The session's ``ImageSettings`` as elements between the camera and the tee, and as the
/// property values that change them while running:
///
/// ```
/// videocrop name=image_crop ! videoscale ! capsfilter name=image_size   (aspect ratio, zoom)
///   ! videobalance name=image_balance                                    (brightness … hue)
///   ! <look>                                                              (filters)
/// ```
/// The look is a bin of its own, swapped while running when the filters change: tones are
/// rewritten in place at `identity` elements, colour effects are `coloreffects` between
/// conversions to RGB and back. The preview branch turns and mirrors the picture at
/// `videoflip name=preview_orientation`.
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
        let isSystemCamera = if case .system = device.kind { true } else { false }
        mirrorsPreview = settings.mirrorsPreview ?? isSystemCamera
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

    /// The crop, scale and colour adjustments, in gst-launch syntax, without the look.
    var adjustments: String {
        let crop = cropMargins
        return "videocrop \(SessionElement.crop.assignment) left=\(crop.left) right=\(crop.right) top=\(crop.top) bottom=\(crop.bottom) "
            + "! videoscale ! capsfilter \(SessionElement.size.assignment) caps=\"\(outputCaps)\" "
            + "! videobalance \(SessionElement.balance.assignment) brightness=\(settings.brightness) contrast=\(settings.contrast) "
            + "saturation=\(settings.saturation) hue=\(settings.hue)"
    }

    /// The filters, in gst-launch syntax: starts with ``SessionElement/lookStart`` and ends with ``SessionElement/lookEnd``.
    var look: String {
        var elements = ["identity \(SessionElement.lookStart.assignment)"]
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

    /// Sets the crop, size and colour properties of a running session's elements to these settings.
    func applyAdjustments(to graph: SessionGraph) throws(GStreamerError) {
        let crop = cropMargins
        try graph.crop.setProperty("left", crop.left)
        try graph.crop.setProperty("right", crop.right)
        try graph.crop.setProperty("top", crop.top)
        try graph.crop.setProperty("bottom", crop.bottom)
        try graph.size.setProperty("caps", .string(outputCaps))
        try graph.balance.setProperty("brightness", settings.brightness)
        try graph.balance.setProperty("contrast", settings.contrast)
        try graph.balance.setProperty("saturation", settings.saturation)
        try graph.balance.setProperty("hue", settings.hue)
    }
}
