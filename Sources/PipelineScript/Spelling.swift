/// Suggestions for misspelled words, for messages that say "did you mean …?".
public enum Spelling {
    /// The candidate nearest `word`, when near enough to be what was meant (at most a third of
    /// its letters differ).
    public static func closest(to word: String, among candidates: [String]) -> String? {
        guard word.count < 40 else { return nil }
        guard let best = candidates.min(by: { distance(word, $0) < distance(word, $1) }),
              distance(word, best) <= max(1, best.count / 3) else { return nil }
        return best
    }

    /// The Levenshtein distance: the fewest insertions, deletions and substitutions from one word to the other.
    public static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
