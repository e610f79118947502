/// How hard x265 tries for each still: quick enough for a burst to keep up with the camera, or
/// thorough for photos finished later, whose files come out smaller at the same quality.
enum HEVCEffort: Sendable, Hashable {
    /// x265's ultrafast preset.
    case quick
    /// x265's slow preset (more modes and rate-distortion searches, psycho-visual tuning).
    case thorough

    var preset: String {
        switch self {
        case .quick: "ultrafast"
        case .thorough: "slow"
        }
    }

    /// x265 options beyond the preset's, each after a colon. Thorough tries intra transforms two
    /// levels deep, where the preset tries one: files a few percent smaller at the same luma PSNR
    /// at high qualities (`scripts/bench --only heic-curve`).
    var options: String {
        switch self {
        case .quick: ""
        case .thorough: ":tu-intra-depth=2"
        }
    }
}
