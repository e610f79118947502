/// The RAW files cameras write beside (or instead of) their JPEGs, known by their names' extensions.
public enum RawFileKind {
    /// The kinds, lower case: Nikon, Canon, Sony, Fujifilm, Olympus, Panasonic, Leica, Pentax,
    /// Samsung, Sigma, Hasselblad, Phase One, Epson, Mamiya and Kodak's own, and DNG.
    public static let extensions: Set<String> = ["nef", "nrw", "cr2", "cr3", "crw", "arw", "srf", "sr2", "raf", "orf", "rw2",
                                                 "rwl", "dng", "pef", "srw", "x3f", "3fr", "fff", "iiq", "erf", "mef", "mos", "kdc"]

    /// The kind of the file a camera named `name` (`DSC_0001.NEF` is `nef`); `nil` for any other file.
    public static func of(_ name: String) -> String? {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        let kind = name[name.index(after: dot)...].lowercased()
        return extensions.contains(kind) ? kind : nil
    }
}
