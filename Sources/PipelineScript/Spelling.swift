/// Suggestions for misspelled words, for messages that say "did you mean …?".
public enum Spelling {
    /// The candidate nearest `word`, when near enough to be what was meant (at most a third of
    /// its letters differ).
    public static func closest(to word: String, among candidates: [String]) -> String? {
        guard word.count < 40 else { return nil }
        let letters = Array(word.unicodeScalars)
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let distance = distance(letters, Array(candidate.unicodeScalars))
            if distance < best?.distance ?? Int.max { best = (candidate, distance) }
        }
        guard let best, best.distance <= max(1, best.candidate.count / 3) else { return nil }
        return best.candidate
    }

    /// The Levenshtein distance: the fewest insertions, deletions and substitutions from one word to the other.
    public static func distance(_ a: String, _ b: String) -> Int {
        distance(Array(a.unicodeScalars), Array(b.unicodeScalars))
    }

    private static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        var previous = Array(0...b.count), current = [Int](repeating: 0, count: b.count + 1)
        for i in a.indices {
            current[0] = i + 1
            for j in b.indices {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (a[i] == b[j] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
