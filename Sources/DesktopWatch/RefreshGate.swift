/// Re-reads a source's state on every trigger, one read at a time: triggers
/// that come during a read make one more read after it, never a pile of them.
public struct RefreshGate {
    private var reading = false
    private var again = false

    public init() {}

    /// Whether a read should begin now (false: one is out; it runs again after).
    public mutating func begin() -> Bool {
        if reading { again = true; return false }
        reading = true
        return true
    }

    /// The read is done; whether another must begin for triggers that came meanwhile.
    public mutating func end() -> Bool {
        reading = false
        defer { again = false }
        return again
    }

    /// The program went away: a reply still out is dropped by the follower.
    public mutating func reset() {
        reading = false
        again = false
    }
}
