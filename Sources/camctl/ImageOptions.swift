import CameraKit
import PipelineScript

/// The options that set the picture's look and framing (``ImageSettings``), shared by preview,
/// capture, booth and run.
enum ImageOptions {
    static let options: [ParsedArguments.Option] = [
        .init(name: "--filter", value: "NAME[+NAME…]"),
        .init(name: "--brightness", value: "-1…1"),
        .init(name: "--contrast", value: "0…2"),
        .init(name: "--saturation", value: "0…2"),
        .init(name: "--hue", value: "-1…1"),
        .init(name: "--zoom", value: "1…8"),
        .init(name: "--zoom-center", value: "X,Y"),
        .init(name: "--aspect", value: "W:H"),
        .init(name: "--mirror", value: "preview|photos|both|none"),
        .init(name: "--rotate", value: "0|90|180|270"),
        .init(name: "--overlay", value: "PNG"),
        .init(name: "--turn-pixels", value: nil),
        .init(name: "--background", value: "PICTURE"),
        .init(name: "--key", value: "green|blue|COLOR|sample"),
        .init(name: "--key-tolerance", value: "DEGREES"),
        .init(name: "--key-softness", value: "0…64"),
        .init(name: "--caption", value: "TEXT"),
        .init(name: "--caption-at", value: "PLACE"),
        .init(name: "--stamp", value: "FORMAT"),
        .init(name: "--stamp-at", value: "PLACE"),
        .init(name: "--text-size", value: "PERCENT"),
        .init(name: "--text-font", value: "FAMILY"),
        .init(name: "--text-color", value: "COLOR"),
    ]

    static let help = """
        The picture: --filter NAME (camctl filters lists them; chain with +, such as mono+warm),
        --brightness, --contrast, --saturation and --hue (0, 1, 1 and 0 leave the picture as it is),
        --zoom FACTOR (digital, centred, or at --zoom-center X,Y given as fractions of the frame),
        --aspect W:H (4:3, 16:9, 3:2, 1:1: the frame cropped around its centre), --mirror (a
        webcam's preview, not a back camera's, is mirrored unless --mirror none or photos),
        --rotate DEGREES (the preview turned; photos record it in EXIF Orientation, or with
        --turn-pixels are turned in their pixels), --overlay PNG (a frame or logo with transparency
        drawn over the picture, scaled to its width), --caption TEXT (words such as an event's name)
        and --stamp FORMAT (each frame's own time by a strftime format, such as "%Y-%m-%d %H:%M:%S"),
        at the bottom left and bottom right unless --caption-at or --stamp-at names a PLACE (top-left,
        top, top-right, left, center, right, bottom-left, bottom, bottom-right), --text-size PERCENT
        of the picture's height (5), --text-font FAMILY (Sans) and --text-color (white, or #RRGGBB).
        --background PICTURE (a JPEG or PNG) replaces a green screen behind the subject: --key blue
        for a blue one, the screen's colour as lit (#RRGGBB), or sample: the colour of the picture's
        edges once the camera runs (the screen empty and lit; it is printed); --key-tolerance DEGREES of hue that
        still count as the screen (35) and --key-softness of its edge (2).
        All apply alike to the preview, the photos and the movies.
        """

    /// The image settings the options ask for, on top of `settings`.
    static func settings(from arguments: ParsedArguments, startingFrom settings: ImageSettings = ImageSettings())
        throws(CommandFailure) -> ImageSettings {
        var settings = settings
        if let text = arguments.string("--filter") { settings.filters = try filters(text, option: "--filter") }
        settings.brightness = try arguments.number("--brightness", in: ImageSettings.brightnessRange) ?? settings.brightness
        settings.contrast = try arguments.number("--contrast", in: ImageSettings.contrastRange) ?? settings.contrast
        settings.saturation = try arguments.number("--saturation", in: ImageSettings.saturationRange) ?? settings.saturation
        settings.hue = try arguments.number("--hue", in: ImageSettings.hueRange) ?? settings.hue
        settings.zoom = try arguments.number("--zoom", in: ImageSettings.zoomRange) ?? settings.zoom
        if let text = arguments.string("--zoom-center") {
            let parts = text.split(separator: ",").compactMap { Double($0) }
            guard parts.count == 2, parts.allSatisfy({ (0...1).contains($0) }) else {
                throw CommandFailure("--zoom-center \(text) is not X,Y with both from 0 to 1, such as 0.5,0.5 for the middle", exitCode: .usage)
            }
            settings.zoomCenter = ZoomCenter(x: parts[0], y: parts[1])
        }
        if let text = arguments.string("--aspect") {
            do {
                settings.aspectRatio = try AspectRatio(parsing: text)
            } catch {
                throw CommandFailure("--aspect: \(error.commandLineSentence)", exitCode: .usage)
            }
        }
        if let text = arguments.string("--mirror") {
            guard let choice = mirroring(text) else {
                throw CommandFailure("--mirror \(text) is not one of preview, photos, both or none", exitCode: .usage)
            }
            (settings.mirrorsPreview, settings.mirrorsPhotos) = choice
        }
        if arguments.flag("--turn-pixels") { settings.turnsPhotoPixels = true }
        if let path = arguments.string("--overlay") {
            do {
                settings.overlay = try DrawingOverlay(path: path)
            } catch {
                throw CommandFailure("--overlay: \(error.commandLineSentence)", exitCode: error.code == .unreadableFile ? .dataError : .usage)
            }
        }
        settings.texts = try texts(from: arguments, replacing: settings.texts)
        settings.greenScreen = try greenScreen(from: arguments, replacing: settings.greenScreen)
        if let text = arguments.string("--rotate") {
            guard let degrees = Int(text), [0, 90, 180, 270].contains(degrees) else {
                throw CommandFailure("--rotate \(text) is not one of 0, 90, 180 or 270", exitCode: .usage)
            }
            settings.rotation = degrees
        }
        return settings
    }

    /// The green screen the options ask for: a new background, or the keying of `greenScreen` (a
    /// description file's) changed.
    static func greenScreen(from arguments: ParsedArguments, replacing greenScreen: GreenScreen?) throws(CommandFailure) -> GreenScreen? {
        var screen = greenScreen
        if let path = arguments.string("--background") {
            do {
                screen = try GreenScreen(path: path)
            } catch {
                throw CommandFailure("--background: \(error.commandLineSentence)", exitCode: error.code == .unreadableFile ? .dataError : .usage)
            }
        }
        let keyed = ["--key", "--key-tolerance", "--key-softness"].filter(arguments.flag)
        guard var chosen = screen else {
            if let option = keyed.first { throw CommandFailure("\(option) keys a green screen out; give --background too", exitCode: .usage) }
            return nil
        }
        do {
            if let key = arguments.string("--key"), !samplesKey(arguments) { chosen.key = try GreenScreen.Key(parsing: key) }
        } catch {
            throw CommandFailure("--key: \(error.commandLineSentence)", exitCode: .usage)
        }
        chosen.tolerance = try arguments.number("--key-tolerance", in: GreenScreen.toleranceRange) ?? chosen.tolerance
        chosen.softness = try arguments.number("--key-softness", in: GreenScreen.softnessRange) ?? chosen.softness
        return chosen
    }

    /// Whether `--key sample` asks for the screen's colour to be sampled once the camera runs.
    static func samplesKey(_ arguments: ParsedArguments) -> Bool {
        arguments.string("--key")?.lowercased() == "sample"
    }

    /// The caption and stamp the options ask for, in place of those of `texts` (a description
    /// file's), each styled by the shared text options.
    static func texts(from arguments: ParsedArguments, replacing texts: [TextMark]) throws(CommandFailure) -> [TextMark] {
        var texts = texts
        func place(_ option: String) throws(CommandFailure) -> TextPlace? {
            guard let text = arguments.string(option) else { return nil }
            guard let place = TextPlace(rawValue: text) else {
                throw CommandFailure("\(option) \(text) is not a place; use one of " + TextPlace.allCases.map(\.rawValue).joined(separator: ", "),
                                     exitCode: .usage)
            }
            return place
        }
        let caption = try place("--caption-at"), stamp = try place("--stamp-at")
        for (option, content, at) in [("--caption", arguments.string("--caption").map(TextMark.Content.caption), caption),
                                      ("--stamp", arguments.string("--stamp").map { TextMark.Content.stamp(format: $0) }, stamp)] {
            guard let content else {
                if at != nil { throw CommandFailure("\(option)-at places a \(option.dropFirst(2)); give \(option) too", exitCode: .usage) }
                continue
            }
            texts.removeAll { $0.isStamp == content.isStamp }
            var mark = TextMark(content, place: at)
            if let percent = try arguments.number("--text-size", in: TextMark.sizeRange.lowerBound * 100...TextMark.sizeRange.upperBound * 100) {
                mark.size = percent / 100
            }
            if let font = arguments.string("--text-font") { mark.font = font }
            do {
                if let color = arguments.string("--text-color") { mark.color = try RGBColor(setting: color) }
                try mark.validate()
            } catch {
                throw CommandFailure("\(option): \(error.commandLineSentence)", exitCode: .usage)
            }
            texts.append(mark)
        }
        return texts
    }

    /// Filter names joined by `+`, such as `mono+warm`.
    static func filters(_ text: String, option: String) throws(CommandFailure) -> [ImageFilter] {
        var filters: [ImageFilter] = []
        for name in text.split(separator: "+", omittingEmptySubsequences: false).map(String.init) {
            guard !name.isEmpty else {
                throw CommandFailure("\(option) \(text) has an empty filter name; join names with a single +, such as mono+warm", exitCode: .usage)
            }
            guard let filter = ImageFilter(rawValue: name.lowercased()) else {
                let names = ImageFilter.allCases.map(\.rawValue)
                let suggestion = Spelling.closest(to: name.lowercased(), among: names).map { "; did you mean \($0)?" }
                    ?? "; camctl filters lists them"
                throw CommandFailure("\(option) \(name) is not a filter\(suggestion)", exitCode: .usage)
            }
            filters.append(filter)
        }
        return filters
    }

    /// Whether `preview`, `photos`, `both` or `none` mirrors the preview and the photos.
    static func mirroring(_ choice: String) -> (preview: Bool, photos: Bool)? {
        ["preview": (true, false), "photos": (false, true), "both": (true, true), "none": (false, false)][choice]
    }

    /// What description files may say of the picture: the filters and ranges of ``ImageSettings``.
    static let vocabulary = ImageVocabulary(
        filters: ImageFilter.allCases.map(\.rawValue),
        ranges: ["brightness": ImageSettings.brightnessRange, "contrast": ImageSettings.contrastRange,
                 "saturation": ImageSettings.saturationRange, "hue": ImageSettings.hueRange, "zoom": ImageSettings.zoomRange,
                 "text size": TextMark.sizeRange.lowerBound * 100...TextMark.sizeRange.upperBound * 100,
                 "tolerance": GreenScreen.toleranceRange, "softness": GreenScreen.softnessRange],
        textPlaces: TextPlace.allCases.map(\.rawValue))
}

extension ImageSettings {
    /// These settings with a description file's change made (its words were checked when parsed).
    func applying(_ change: ImageChange) throws(CommandFailure) -> ImageSettings {
        var settings = self
        switch change {
        case .filters(let names): settings.filters = names.compactMap(ImageFilter.init(rawValue:))
        case .adjustment("brightness", let value): settings.brightness = value
        case .adjustment("contrast", let value): settings.contrast = value
        case .adjustment("saturation", let value): settings.saturation = value
        case .adjustment(_, let value): settings.hue = value
        case .zoom(let factor, let x, let y):
            settings.zoom = factor
            if let x, let y { settings.zoomCenter = ZoomCenter(x: x, y: y) }
        case .aspect(let text):
            do {
                settings.aspectRatio = try text.map { text throws(CaptureError) in try AspectRatio(parsing: text) }
            } catch {
                throw CommandFailure(error)
            }
        case .mirror(let choice):
            if let mirroring = ImageOptions.mirroring(choice) { (settings.mirrorsPreview, settings.mirrorsPhotos) = mirroring }
        case .rotate(let degrees, let pixels): (settings.rotation, settings.turnsPhotoPixels) = (degrees, pixels)
        case .overlay(let path):
            do {
                settings.overlay = try path.map { path throws(CaptureError) in try DrawingOverlay(path: path) }
            } catch {
                throw CommandFailure(error)
            }
        case .text(let words, let isStamp):
            settings.texts.removeAll { $0.isStamp == isStamp }
            guard let words else { break }
            var mark = TextMark(isStamp ? .stamp(format: words.words) : .caption(words.words), place: words.place.flatMap(TextPlace.init(rawValue:)))
            if let size = words.size { mark.size = size / 100 }
            if let font = words.font { mark.font = font }
            do {
                if let color = words.color { mark.color = try RGBColor(setting: color) }
                try mark.validate()
            } catch {
                throw CommandFailure(error)
            }
            settings.texts.append(mark)
        case .background(let words):
            guard let words else {
                settings.greenScreen = nil
                break
            }
            do {
                var screen = try GreenScreen(path: words.picture)
                if let key = words.key { screen.key = try GreenScreen.Key(parsing: key) }
                screen.tolerance = words.tolerance ?? screen.tolerance
                screen.softness = words.softness ?? screen.softness
                settings.greenScreen = screen
            } catch {
                throw CommandFailure(error)
            }
        }
        return settings
    }
}
