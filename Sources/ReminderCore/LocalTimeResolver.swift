/// Turns a local wall time into an instant given only "the UTC offset at an
/// instant": the one rule for gaps and overlaps, shared by every calendar.
enum LocalTimeResolver {
    /// The UTC second at which the wall clock shows `localSeconds` (a wall
    /// time counted as if it were UTC). `offsetAt` gives the UTC offset in
    /// seconds at a UTC second. In a gap, the first instant after it (the
    /// transition itself); in an overlap, the earlier instant. Assumes at
    /// most one offset change within a day of the wall time, as in every
    /// real time zone.
    static func resolve(localSeconds wall: Int64, offsetAt: (Int64) -> Int64) -> Int64 {
        let before = offsetAt(wall - 86_400)
        let after = offsetAt(wall + 86_400)
        // A candidate instant is valid when the offset there is the one used to find it.
        let valid = [before, after].filter { offsetAt(wall - $0) == $0 }.map { wall - $0 }
        if let earliest = valid.min() { return earliest }
        // A gap: interpreted with the new offset the wall time lies before
        // the change, with the old one after it. Search for the change.
        var lo = wall - max(before, after)
        var hi = wall - min(before, after)
        guard lo < hi else { return wall - before }
        let startOffset = offsetAt(lo)
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2
            if offsetAt(mid) == startOffset { lo = mid } else { hi = mid }
        }
        return hi
    }
}
