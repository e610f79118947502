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
        numbersEachPicture || pieces.contains { if case .conversion(_, "t") = $0 { true } else { false } }
    }

    /// Whether it numbers each picture (`%d`, `%04d`): pictures made at one time (sheets of one
    /// library) are told apart only by a number.
    public var numbersEachPicture: Bool {
        pieces.contains { if case .conversion(_, "d") = $0 { true } else { false } }
    }

    /// The first `%NNd` that asks for more digits than ``maximumCounterWidth``, if any.
    public var overwideCounter: String? {
        for case .conversion(let width, "d") in pieces where (Int(width) ?? (width.isEmpty ? 0 : Int.max)) > Self.maximumCounterWidth {
            return "%" + width + "d"
        }
        return nil
    }

    /// The path for picture number `number` (from 1) captured at `date`.
    public func path(number: Int, date: Date) -> String {
        pieces.map { piece in
            switch piece {
            case .literal(let character): String(character)
            case .conversion(let width, "d"):
                String(repeating: "0", count: max(0, min(Int(width) ?? 0, Self.maximumCounterWidth) - String(number).count)) + String(number)
            case .conversion(_, "t"): PhotoLibrary.fileStamp(date)
            case .conversion(_, "%"): "%"
            case .conversion(let width, let other): "%" + width + (other.map(String.init) ?? "")
            }
        }.joined()
    }

    /// A piece of the pattern: a character as it is, or a `%`, the digits after it, and the
    /// character after them (`nil` at the end).
    private enum Piece {
        case literal(Character)
        case conversion(width: String, Character?)
    }

    private var pieces: [Piece] {
        var pieces: [Piece] = []
        var characters = text[...]
        while let character = characters.popFirst() {
            guard character == "%" else { pieces.append(.literal(character)); continue }
            let width = characters.prefix { $0.isASCII && $0.isNumber }
            characters = characters.dropFirst(width.count)
            pieces.append(.conversion(width: String(width), characters.popFirst()))
        }
        return pieces
    }
}
