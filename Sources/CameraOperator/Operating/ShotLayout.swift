import CameraKit

/// How a booth's shots are laid out on its picture: a built-in grid, or a template of one's own.
public enum ShotLayout: Sendable, Equatable {
    /// Equal 640-pixel-wide cells with even margins on white: 2 columns (a grid), 1 (a strip).
    case grid(columns: Int)
    /// A template read from its file, with its pictures.
    case template(TemplateFile)

    /// The 2x2 grid: a booth's default.
    public static let standard = ShotLayout.grid(columns: 2)
    /// The 1x4 strip.
    public static let strip = ShotLayout.grid(columns: 1)

    /// The built-in layouts by the names every front end takes (`--layout 2x2`, `"layout": "1x4"`).
    public enum BuiltIn: String, CaseIterable, Sendable {
        case grid = "2x2", strip = "1x4"

        /// The layout the name stands for.
        public var layout: ShotLayout { self == .grid ? .standard : .strip }

        /// The layout named `name`, or by its word (`grid`, `strip`); `nil` for any other name.
        public init?(named name: String) {
            guard let builtIn = Self(rawValue: name) ?? Self.allCases.first(where: { "\($0)" == name }) else { return nil }
            self = builtIn
        }
    }

    /// The longest side shots are made thumbnails of for this layout: a grid's cell width, or a
    /// template's largest slot, so each shot is composed at the picture's full resolution.
    var shotSide: Int {
        switch self {
        case .grid: ShotComposition.cellWidth
        case .template(let file): max(ShotComposition.cellWidth, file.template.slots.map { max($0.width, $0.height) }.max() ?? 0)
        }
    }

    /// How many shots the layout has places for (`nil`: as many as are taken).
    public var places: Int? {
        if case .template(let file) = self { file.template.slots.count } else { nil }
    }

}
