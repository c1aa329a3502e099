/// GNOME's own eyesight break, taken: a rest like time away, so the next
/// reminder comes a full interval later instead of straight after it.
extension ReminderEngine {
    /// How close to a `natural` record iCare made itself a desktop break
    /// counts as the same rest (both are told when the person comes back).
    static let sameRestWindow: Int64 = 60 * Micro.second

    /// The desktop's break ended now after `seconds` of rest. Counted only
    /// while the cycle runs in active hours, not during a pause or a call
    /// (a call is never a rest); recorded as `natural` unless iCare's own
    /// idle watch recorded this return already, and a full interval starts.
    mutating func desktopBreakTaken(_ seconds: UInt32, at now: Timestamp, _ out: inout Outbox) {
        guard !busy, causes.isEmpty, active, phase.isCycling, seconds > 0 else { return }
        if lastNatural.map({ now - $0 >= Self.sameRestWindow }) ?? true {
            record(.natural, at: now, seconds: min(seconds, Self.naturalRestCap), &out)
        }
        // The person is back: an idle span still open is this rest, not another.
        markPresent()
        phase = .off
    }
}
