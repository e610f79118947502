import Formatting
import FoundationEssentials
import Glibc

/// camctl's manual page in troff (`man` format), written from the commands' own synopses, help
/// and tables of options, so it never drifts from `--help`: `camctl help --man`.
enum ManualPage {
    static var troff: String {
        var page = [
            ".TH CAMCTL 1 \"\" \"camctl \(camctlVersion)\" \"User Commands\"",
            ".SH NAME",
            "camctl \\- cameras on Linux through GStreamer",
            ".SH SYNOPSIS",
            ".B camctl",
            ".I COMMAND",
            "[\\fIOPTIONS\\fR]",
            ".SH DESCRIPTION",
            text("""
                camctl drives cameras through GStreamer with the capture model of AVFoundation: a session, \
                devices, outputs, photo settings and a photo library. --device names a camera: test or \
                test:PATTERN (the built-in test camera), file:PATH (an image or video used as a camera), \
                gphoto2:PORT or gphoto2:MODEL (a DSLR or mirrorless camera, through libgphoto2), a \
                device path such as /dev/video0, front or back (by the position the camera reports), or \
                part of a camera's name; the default is the first camera attached.
                """),
            ".SH COMMANDS",
        ]
        for command in Command.all {
            page.append(".SS \(text(command.name))")
            page.append(".nf")
            page.append(text(command.synopsis.split(separator: "\n").map { $0.trimmed() }.joined(separator: "\n  ")))
            page.append(".fi")
            page.append(".PP")
            page.append(text(command.summary.prefix(1).uppercased() + command.summary.dropFirst() + "."))
            page.append(".PP")
            page.append(text(command.help.split(separator: "\n").joined(separator: " ")))
            guard !command.options.isEmpty else { continue }
            page.append(".PP")
            page.append("Options: " + command.options.map { option in
                let short = option.short.map { "\\fB\(text($0))\\fR " } ?? ""
                return short + "\\fB\(text(option.name))\\fR" + (option.value.map { " \\fI\(text($0))\\fR" } ?? "")
            }.joined(separator: ", ") + ".")
        }
        page += [
            ".SS help", ".nf", text("camctl help [COMMAND]\ncamctl help --man"), ".fi", ".PP",
            text("Lists the commands, or one command's options; --man prints this manual page. camctl --version prints the version."),
            ".SH ENVIRONMENT",
            ".TP", "\\fBCAMCTL_LIBRARY\\fR", text("The photo library's folder, unless --library names one."),
            ".TP", "\\fBXDG_PICTURES_DIR\\fR", text("Without CAMCTL_LIBRARY, the library is its camctl folder (else ~/Pictures/camctl)."),
            ".TP", "\\fBDISPLAY\\fR, \\fBWAYLAND_DISPLAY\\fR", text("Where preview windows open; without either, the automatic sink is refused."),
            ".TP", "\\fBGST_DEBUG\\fR", text("GStreamer's own debug output, as GStreamer documents it; --verbose lets its warnings through."),
            ".SH EXIT STATUS",
        ]
        for (code, meaning) in ExitCode.documented {
            page += [".TP", "\\fB\(code.rawValue)\\fR", text(meaning)]
        }
        page += [".SH KEYS", text("In a terminal, the same key does the same in every command that runs a camera.")]
        for key in KeyTable.keys {
            page += [".TP", "\\fB\(text(key.names))\\fR", text(key.meaning)]
        }
        page += [".SH SIGNALS", text("""
            SIGUSR1 takes a photo at once (preview, capture, booth, record, run, serve); SIGUSR2 ends cleanly after the photo in \
            flight; SIGINT and SIGTERM stop with exit status 130, keeping every photo saved, and end a \
            running --exec hook.
            """)]
        page += [".SH SEE ALSO", "\\fBgst-launch-1.0\\fR(1), \\fBgst-inspect-1.0\\fR(1)"]
        return page.joined(separator: "\n") + "\n"
    }

    /// Text as troff shows it: backslashes and hyphens escaped, characters past ASCII named by
    /// their code point, no line starting with a control character.
    static func text(_ words: some StringProtocol) -> String {
        let escaped = String(words).replacing("\\", with: "\\e").replacing("-", with: "\\-")
            .unicodeScalars.map { $0.isASCII ? String($0) : "\\[u" + String($0.value, radix: 16, uppercase: true).leftPadded(to: 4) + "]" }
            .joined()
        return escaped.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix(".") || $0.hasPrefix("'") ? "\\&" + $0 : String($0) }
            .joined(separator: "\n")
    }
}

private extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
