import CameraKit
import Formatting
import FoundationEssentials
import Glibc
import JSON

/// An operator action from a request's JSON object (`{"action": "countdown", "seconds": 3}`), as
/// the HTTP API, a fleet's commands and any other transport take them.
public enum ActionRequest {
    /// The actions the API takes, by name.
    public static let names = ["capture", "burst", "countdown", "show_result", "show_shots", "cut_short", "retake", "switch_camera",
                        "pause_preview", "resume_preview", "image", "compose", "hold", "review", "keep", "discard", "booth", "end_run",
                        "record_start", "record_stop", "record_pause", "record_resume"]

    /// How far ahead a capture may be asked for (`"at"`): the request holds its connection until then.
    public static let captureHorizon: Double = 60

    /// The action `object` asks for; `image` is the session's picture settings now, `camera` its
    /// camera, `reviewHint` what a review asked for shows at the preview's foot (how the
    /// transport's people answer). A camera named is looked up off Swift's shared threads (the
    /// list of cameras runs programs).
    public static func action(_ object: [String: JSONValue], image: ImageSettings, camera: CaptureDevice,
                              reviewHint: String? = nil) async throws(RequestError) -> Action {
        guard let name = object["action"]?.string else {
            throw .badRequest("the request names no action; give \"action\": one of \(names.joined(separator: ", "))")
        }
        switch name {
        case "capture":
            guard let at = object["at"] else { return try capture(object, reviewHint: reviewHint) }
            guard let seconds = at.double, seconds.isFinite, seconds > 0 else {
                throw .badRequest("at must be a time in seconds since 1970, such as \(Int(Date().timeIntervalSince1970) + 1)")
            }
            let ahead = seconds - Date().timeIntervalSince1970
            guard ahead <= captureHorizon else {
                throw .badRequest(String(printf: "at must be at most %.0f seconds from now; it was %.0f s ahead", captureHorizon, ahead))
            }
            let tolerance = try number("tolerance", in: object, 0...10) ?? 0.1
            return .takePhotoNear(Date(timeIntervalSince1970: seconds), tolerance: tolerance, try settings(object))
        case "burst": return .burst(count: try integer("count", in: object, 1...1000) ?? 3, try settings(object))
        // A countdown or showing asked for without its length takes a booth's.
        case "countdown": return .countdown(seconds: try seconds(object) ?? BoothPlan().countdown)
        case "show_result": return .showResult(seconds: try seconds(object) ?? BoothPlan().showResult)
        case "show_shots":
            return .showShots(slots: try integer("slots", in: object, 1...64) ?? BoothPlan().shots, layout: try layout(object),
                              seconds: try seconds(object) ?? BoothPlan().showShots)
        case "cut_short": return .cutShort
        case "retake": return .retake
        case "switch_camera":
            guard let device = object["device"]?.string else { return .nextCamera }
            do {
                return .switchCamera(to: try await DeviceDiscovery.lane.run { () throws(CaptureError) in try DeviceDiscovery.device(named: device) })
            } catch {
                throw RequestError(.notFound, error.description)
            }
        case "pause_preview": return .pausePreview
        case "resume_preview": return .resumePreview
        case "image":
            _ = try changed(image, by: object)  // its values checked now; applied to the picture as it is when its turn comes
            return .adjustImage { now in (try? changed(now, by: object)) ?? now }
        case "compose": return .compose(layout: try layout(object), quality: try integer("quality", in: object, 1...100) ?? 90, albums: [BoothPlan.album])
        case "hold": return .holdForReview
        case "review": return .review(try review(object, hint: reviewHint))
        case "booth":
            var plan = BoothPlan()
            plan.shots = try integer("shots", in: object, 1...16) ?? plan.shots
            plan.countdown = try seconds(object, name: "countdown") ?? plan.countdown
            plan.layout = try layout(object)
            plan.showShots = try seconds(object, name: "show_shots") ?? plan.showShots
            plan.showResult = try seconds(object, name: "show_result") ?? plan.showResult
            if object["review"]?.bool == true { plan.review = try review(object, hint: reviewHint) }
            if let retake = object["retake"] {
                guard let retakes = retake.bool else { throw .badRequest("retake must be true or false") }
                plan.retakes = retakes
            }
            plan.settings = try settings(object)
            if let animation = object["animation"] {
                guard let name = animation.string, let style = ShotAnimation.Style(rawValue: name) else {
                    throw .badRequest("animation must be mp4, gif or boomerang")
                }
                plan.animation = style
            }
            return .booth(plan)
        case "end_run": return .endRun
        case "keep": return .decide(.keep)
        case "discard": return .decide(.discard)
        case "record_start":
            return .startRecording(MovieSettings(maximumDuration: try number("duration", in: object, 0.1...86_400),
                                                 maximumBytes: try integer("max_size", in: object, 1...1_000_000).map { $0 * 1_000_000 },
                                                 kilobitsPerSecond: try integer("bitrate", in: object, 100...200_000),
                                                 audio: try await audio(object, camera: camera)))
        case "record_stop": return .stopRecording
        case "record_pause": return .pauseRecording
        case "record_resume": return .resumeRecording
        default:
            throw .badRequest("there is no action \"\(name)\"; the actions are \(names.joined(separator: ", "))")
        }
    }

    /// A photo, after a countdown (`"countdown"`) and through a review (`"review": true`) when
    /// the request asks for them (the operator takes a plan of neither as a photo now).
    private static func capture(_ object: [String: JSONValue], reviewHint: String?) throws(RequestError) -> Action {
        var plan = CapturePlan()
        plan.settings = try settings(object)
        plan.countdown = try seconds(object, name: "countdown") ?? plan.countdown
        if object["review"]?.bool == true { plan.review = try review(object, hint: reviewHint) }
        return .capture(plan)
    }

    /// The review a request asks for: `"timeout"` seconds (0: for ever; the default without it),
    /// unanswered kept, with `hint`.
    private static func review(_ object: [String: JSONValue], hint: String?) throws(RequestError) -> ReviewPlan {
        ReviewPlan(timeout: ReviewPlan.timeout(given: try seconds(object, name: "timeout")), hint: hint)
    }

    /// The sound `audio` names (`none`, `default`, `test`, a microphone), or the camera's by default.
    private static func audio(_ object: [String: JSONValue], camera: CaptureDevice) async throws(RequestError) -> MovieAudio? {
        guard let value = object["audio"] else { return await MovieAudio.automatic(for: camera) }
        guard let word = value.string, !word.isEmpty else {
            throw .badRequest("audio must be \"none\", \"default\", \"test\" or a microphone's name")
        }
        return MovieAudio.named(word: word)
    }

    private static func settings(_ object: [String: JSONValue]) throws(RequestError) -> PhotoSettings {
        var settings = PhotoSettings()
        switch object["codec"]?.string {
        case nil, "jpeg"?: settings.codec = .jpeg
        case "hevc"?, "heic"?:
            settings.codec = .hevc
            settings.defersHEVCProcessing = true  // finished after the shot, into the library
        case let other?: throw .badRequest("there is no codec \"\(other)\"; use jpeg or hevc")
        }
        settings.quality = try integer("quality", in: object, 1...100) ?? settings.quality
        return settings
    }

    /// The layout: `2x2` or `grid`, `1x4` or `strip`.
    private static func layout(_ object: [String: JSONValue]) throws(RequestError) -> ShotLayout {
        guard let name = object["layout"]?.string else { return BoothPlan().layout }
        guard let builtIn = ShotLayout.BuiltIn(named: name) else {
            throw .badRequest("there is no layout \"\(name)\"; use 2x2 (grid) or 1x4 (strip)")
        }
        return builtIn.layout
    }

    private static func changed(_ image: ImageSettings, by object: [String: JSONValue]) throws(RequestError) -> ImageSettings {
        var image = image
        if let filter = object["filter"]?.string {
            if filter == "next" {
                image = image.withNextFilter()
            } else if let named = ImageFilter(rawValue: filter) {
                image.filters = named == .none ? [] : [named]
            } else {
                throw .badRequest("there is no filter \"\(filter)\"; the filters are \(ImageFilter.allCases.map(\.rawValue).joined(separator: ", "))")
            }
        }
        switch object["zoom"]?.string {
        case "in"?, "out"?: image = image.zoomed(in: object["zoom"]?.string == "in")
        default: image.zoom = try number("zoom", in: object, ImageSettings.zoomRange) ?? image.zoom
        }
        image.brightness = try number("brightness", in: object, ImageSettings.brightnessRange) ?? image.brightness
        image.contrast = try number("contrast", in: object, ImageSettings.contrastRange) ?? image.contrast
        image.saturation = try number("saturation", in: object, ImageSettings.saturationRange) ?? image.saturation
        image.hue = try number("hue", in: object, ImageSettings.hueRange) ?? image.hue
        return image
    }

    private static func seconds(_ object: [String: JSONValue], name: String = "seconds") throws(RequestError) -> Double? {
        try number(name, in: object, 0...3600)
    }

    private static func number(_ name: String, in object: [String: JSONValue], _ range: ClosedRange<Double>) throws(RequestError) -> Double? {
        guard let value = object[name] else { return nil }
        guard let number = value.double, number.isFinite, range.contains(number) else {
            throw .badRequest("\(name) must be a number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    /// The whole number `object` holds at `name` (`nil` when it holds none), checked to lie in `range`.
    public static func integer(_ name: String, in object: [String: JSONValue], _ range: ClosedRange<Int>) throws(RequestError) -> Int? {
        guard let value = object[name] else { return nil }
        guard let number = value.double, number == number.rounded(), range.contains(Int(exactly: number) ?? Int.min) else {
            throw .badRequest("\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return Int(number)
    }
}
