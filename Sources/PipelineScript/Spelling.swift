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

    /// The edit distance: the fewest insertions, deletions, substitutions and swaps of two
    /// neighbouring letters (`sepai` for `sepia` is one) from one word to the other.
    public static func distance(_ a: String, _ b: String) -> Int {
        distance(Array(a.unicodeScalars), Array(b.unicodeScalars))
    }

    private static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        // Three rows of the table: two back (for a swap), the last, and the one being filled.
        var beforeLast = [Int](repeating: 0, count: b.count + 1)
        var last = Array(0...b.count), current = [Int](repeating: 0, count: b.count + 1)
        for i in a.indices {
            current[0] = i + 1
            for j in b.indices {
                current[j + 1] = min(last[j + 1] + 1, current[j] + 1, last[j] + (a[i] == b[j] ? 0 : 1))
                if i > 0, j > 0, a[i] == b[j - 1], a[i - 1] == b[j] {
                    current[j + 1] = min(current[j + 1], beforeLast[j - 1] + 1)
                }
            }
            (beforeLast, last, current) = (last, current, beforeLast)
        }
        return last[b.count]
    }
}
