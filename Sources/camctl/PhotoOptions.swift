import CameraKit

/// The options that choose how photos are encoded (`--jpeg`, `--hevc`, `--quality`, `--now`),
/// read once for every command that takes photos.
enum PhotoOptions {
    static let options: [ParsedArguments.Option] = [
        .init(name: "--jpeg", value: nil), .init(name: "--hevc", value: nil),
        .init(name: "--quality", value: "1-100", short: "-q"), .init(name: "--now", value: nil),
    ]

    static let help = """
        A HEIC going only into the library is finished after the shot, as phones do: the photo is kept at once as a
        JPEG proxy with its frame spooled (library list shows it processing), and its HEIC, made with x265 settings that
        take longer and make smaller files, replaces the proxy; the command ends once its photos are final, and a run
        ended first leaves them to the next (or to camctl library process). --now encodes each HEIC at once.
        """

    /// The settings the options ask for, on top of `settings`.
    static func settings(from arguments: ParsedArguments, startingFrom settings: PhotoSettings = PhotoSettings()) throws(CommandFailure) -> PhotoSettings {
        try arguments.refuseTogether("--jpeg", "--hevc")
        var settings = settings
        if arguments.flag("--hevc") { settings.codec = .hevc }
        if arguments.flag("--now"), !arguments.flag("--hevc") { throw CommandFailure("--now needs --hevc", exitCode: .usage) }
        settings.defersHEVCProcessing = !arguments.flag("--now")
        if arguments.flag("--jpeg") { settings.codec = .jpeg }
        settings.quality = try arguments.integer("--quality", in: 1...100) ?? settings.quality
        return settings
    }
}
