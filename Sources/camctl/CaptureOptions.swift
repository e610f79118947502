import CameraKit

/// The options of `camctl capture`.
struct CaptureOptions: Equatable {
    var device: String?
    var output = "photo.jpg"
    var format = FormatRequest.high
    var settings = PhotoSettings()
    var printsPipeline = false

    static func parse(_ arguments: [String]) throws(CommandFailure) -> CaptureOptions {
        var options = CaptureOptions()
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            let (name, inlineValue) = split(argument)
            func value() throws(CommandFailure) -> String {
                if let inlineValue { return inlineValue }
                guard let next = remaining.popFirst(), !next.hasPrefix("--") else {
                    throw CommandFailure("\(name) needs a value", exitCode: .usage)
                }
                return next
            }
            switch name {
            case "--device": options.device = try value()
            case "--output", "-o": options.output = try value()
            case "--resolution":
                let text = try value()
                do {
                    options.format = try FormatRequest(parsing: text)
                } catch {
                    throw CommandFailure("--resolution: \(error.message)", exitCode: .usage)
                }
            case "--quality":
                let text = try value()
                guard let quality = Int(text), (1...100).contains(quality) else {
                    throw CommandFailure("--quality \(text) is not a number from 1 to 100", exitCode: .usage)
                }
                options.settings.quality = quality
            case "--print-pipeline": options.printsPipeline = true
            case "--jpeg": options.settings.codec = .jpeg
            case "--hevc": options.settings.codec = .hevc
            case "--flash":
                let text = try value()
                guard let mode = PhotoSettings.FlashMode(rawValue: text) else {
                    throw CommandFailure("--flash \(text) is not a flash mode; use off, on or auto", exitCode: .usage)
                }
                options.settings.flashMode = mode
            case "--prioritize":
                let text = try value()
                guard let priority = PhotoSettings.QualityPrioritization(rawValue: text) else {
                    throw CommandFailure("--prioritize \(text) is not a priority; use speed, balanced or quality", exitCode: .usage)
                }
                options.settings.prioritization = priority
            default:
                throw CommandFailure("capture has no option \(name); run camctl help to see the options", exitCode: .usage)
            }
        }
        return options
    }

    private static func split(_ argument: String) -> (String, String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }
}
