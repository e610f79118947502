/// The options of `camctl capture`.
struct CaptureOptions: Equatable {
    var device = "test"
    var output = "photo.jpg"
    var width = 1920
    var height = 1080
    var quality = 85

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
                let parts = text.split(separator: "x").compactMap { Int($0) }
                guard parts.count == 2, parts.allSatisfy({ (1...16384).contains($0) }) else {
                    throw CommandFailure("--resolution \(text) is not a size; write it as WIDTHxHEIGHT, such as 1920x1080", exitCode: .usage)
                }
                (options.width, options.height) = (parts[0], parts[1])
            case "--quality":
                let text = try value()
                guard let quality = Int(text), (1...100).contains(quality) else {
                    throw CommandFailure("--quality \(text) is not a number from 1 to 100", exitCode: .usage)
                }
                options.quality = quality
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
