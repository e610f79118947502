import Formatting
import FoundationEssentials
import Glibc

extension PhotoLibrary {
    /// Where the library is when none is named: `CAMCTL_LIBRARY`, else the XDG pictures folder
    /// (`XDG_PICTURES_DIR`, from the environment or `~/.config/user-dirs.dirs`) + `/camctl`, else
    /// `~/Pictures/camctl`.
    public static func defaultFolder(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let folder = environment["CAMCTL_LIBRARY"], !folder.isEmpty { return folder }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? FileManager.default.homeDirectoryForCurrentUser.path
        if let pictures = environment["XDG_PICTURES_DIR"] ?? userDirsPictures(home: home, environment: environment),
           !pictures.isEmpty {
            return pictures + "/camctl"
        }
        return home + "/Pictures/camctl"
    }

    /// `XDG_PICTURES_DIR="$HOME/Pictures"` from xdg-user-dirs' file, with `$HOME` expanded.
    private static func userDirsPictures(home: String, environment: [String: String]) -> String? {
        let config = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? home + "/.config"
        guard let text = try? String(contentsOfFile: config + "/user-dirs.dirs", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("XDG_PICTURES_DIR=") {
            let value = line.dropFirst("XDG_PICTURES_DIR=".count).trimmed { $0 == "\"" }
            return value.replacing("$HOME", with: home)
        }
        return nil
    }
}
