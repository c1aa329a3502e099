import Localization

/// "Did you mean …": the nearest known word to a typo.
public enum Suggestion {
    /// The candidate nearest to `word` by edit distance (a swap of two
    /// neighbours counts as one edit), or the only one it is a prefix of;
    /// nil when nothing is close enough to be a likely typo.
    public static func nearest(_ word: String, among candidates: [String]) -> String? {
        let w = word.lowercased()
        guard !w.isEmpty else { return nil }
        let limit = w.count <= 4 ? 1 : 2
        var best: (String, Int)?
        for c in candidates {
            let d = distance(w, c.lowercased())
            if d <= limit, d < (best?.1 ?? Int.max) { best = (c, d) }
        }
        if let best { return best.0 }
        let prefixed = candidates.filter { $0.lowercased().hasPrefix(w) }
        return prefixed.count == 1 ? prefixed[0] : nil
    }

    /// `" Did you mean 'status'?"`, or `""`.
    static func phrase(_ word: String, among candidates: [String], prefix: String = "") -> String {
        nearest(word, among: candidates).map { " " + tr("Did you mean '%s'?", prefix + $0) } ?? ""
    }

    /// Optimal-string-alignment distance: insertions, deletions,
    /// substitutions and adjacent transpositions.
    public static func distance(_ a: String, _ b: String) -> Int {
        let s = Array(a), t = Array(b)
        if s.isEmpty { return t.count }
        if t.isEmpty { return s.count }
        var d = [[Int]](repeating: [Int](repeating: 0, count: t.count + 1), count: s.count + 1)
        for i in 0...s.count { d[i][0] = i }
        for j in 0...t.count { d[0][j] = j }
        for i in 1...s.count {
            for j in 1...t.count {
                let cost = s[i - 1] == t[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, s[i - 1] == t[j - 2], s[i - 2] == t[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[s.count][t.count]
    }
}
