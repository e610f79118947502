import CameraKit

/// `--no-photos`, read alike by `preview` and `record`: a command that takes no photos holds no
/// full-size frame for them (the frame kept for zero shutter lag), so it runs in less memory;
/// the photo keys and SIGUSR1 then say so and do nothing else.
struct PhotoTaking {
    static let option = ParsedArguments.Option(name: "--no-photos", value: nil)

    static let help = """
        --no-photos takes no photos: the command then holds no full-size frame for them (a photo is
        otherwise of the very frame on screen when asked, which costs that frame's memory), and
        space, Enter and SIGUSR1 only say that photos are off.
        """

    /// What a photo key or SIGUSR1 is answered with while photos are off.
    static let refusal = "no photo: photos are off (--no-photos)"

    /// Whether the command takes photos.
    let isOn: Bool

    init(_ arguments: ParsedArguments) {
        isOn = !arguments.flag("--no-photos")
    }

    /// The key hint for the progress line: the photo key, or nothing while photos are off.
    var keyHint: String { isOn ? "space: photo, " : "" }
}
