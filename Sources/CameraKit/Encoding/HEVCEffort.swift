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
}
