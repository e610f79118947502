import FoundationEssentials
import Glibc
import PhotoLibrary

/// A path that names each picture: `%d` the picture's number, `%04d` zero-padded (at most
/// ``maximumCounterWidth`` digits), `%t` its capture time (`20261130-050132.123`), `%%` a percent sign.
public struct OutputPattern: Sendable, Equatable {
    public let text: String

    /// The widest zero-padded counter a pattern may ask for (`%020d`).
    public static let maximumCounterWidth = 20

    public init(_ text: String) {
        self.text = text
    }

    /// Whether it names each picture differently (`%d`, `%04d` or `%t`).
    public var namesEachPicture: Bool {
        text.contains("%t") || text.contains(/%[0-9]*d/)
    }

    /// The first `%NNd` that asks for more digits than ``maximumCounterWidth``, if any.
    public var overwideCounter: String? {
        text.matches(of: /%([0-9]+)d/).first { (Int($0.output.1) ?? Int.max) > Self.maximumCounterWidth }.map { String($0.output.0) }
    }

    /// The path for picture number `number` (from 1) captured at `date`.
    public func path(number: Int, date: Date) -> String {
        var result = ""
        var characters = text[...]
        while let character = characters.popFirst() {
            guard character == "%" else { result.append(character); continue }
            var width = ""
            while let digit = characters.first, digit.isASCII, digit.isNumber { width.append(digit); characters.removeFirst() }
            switch characters.popFirst() {
            case "d":
                let digits = String(number)
                let padding = max(0, min(Int(width) ?? 0, Self.maximumCounterWidth) - digits.count)
                result += String(repeating: "0", count: padding) + digits
            case "t": result += PhotoLibrary.fileStamp(date)
            case "%": result += "%"
            case let other?: result += "%" + width + String(other)
            case nil: result += "%" + width
            }
        }
        return result
    }
}
