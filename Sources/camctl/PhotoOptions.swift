import CameraKit

/// The options that choose how photos are encoded (`--jpeg`, `--hevc`, `--quality`), read once
/// for every command that takes photos.
enum PhotoOptions {
    static let options: [ParsedArguments.Option] = [
        .init(name: "--jpeg", value: nil), .init(name: "--hevc", value: nil),
        .init(name: "--quality", value: "1-100", short: "-q"),
    ]

    /// The settings the options ask for, on top of `settings`.
    static func settings(from arguments: ParsedArguments, startingFrom settings: PhotoSettings = PhotoSettings()) throws(CommandFailure) -> PhotoSettings {
        try arguments.refuseTogether("--jpeg", "--hevc")
        var settings = settings
        if arguments.flag("--hevc") { settings.codec = .hevc }
        if arguments.flag("--jpeg") { settings.codec = .jpeg }
        settings.quality = try arguments.integer("--quality", in: 1...100) ?? settings.quality
        return settings
    }
}
