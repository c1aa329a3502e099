import ReminderCore

/// What the ring shows at one moment, worked out from the engine's status
/// alone (pure: the time is given), and when it next needs redrawing.
public struct RingFace: Equatable, Sendable {
    /// The ring has a look per state (`RingRenderer.colour`).
    public var look: ReminderState
    /// The filled share of the ring, already stepped (see `RingRenderer.steppedFraction`).
    public var fraction: Double
    /// Seconds to the next break (waiting, snoozed) or to the break's end; nil when none counts down.
    public var secondsLeft: Int64?
    /// The wall time at which the stepped fraction changes next; nil when
    /// it changes only with the state (the engine's own deadline).
    public var nextStep: Timestamp?

    public init(look: ReminderState, fraction: Double, secondsLeft: Int64?, nextStep: Timestamp?) {
        self.look = look
        self.fraction = fraction
        self.secondsLeft = secondsLeft
        self.nextStep = nextStep
    }

    /// How many steps a wait between breaks is drawn in, at most.
    public static let intervalSteps: Int64 = 60

    /// The face for `status` at `now`. `interval` is the wait between
    /// breaks and `snooze` the default snooze, both in µs as the engine
    /// counts them (scaled by its time scale); `breakLength` in µs.
    public static func of(_ status: ReminderStatus, now: Timestamp, interval: Int64, snooze: Int64,
                          breakLength: Int64) -> RingFace {
        switch status.state {
        case .waiting, .snoozed:
            let left = max(0, status.nextBreak - now)
            // A snooze of a custom length is drawn against the longer of it and the default.
            let total = status.state == .waiting ? interval : max(snooze, left)
            return stepped(status.state, left: left, total: total, steps: intervalSteps, end: status.nextBreak)
        case .break:
            let left = max(0, status.breakEnds - now)
            let steps = max(1, breakLength / Micro.second)
            return stepped(.break, left: left, total: breakLength, steps: steps, end: status.breakEnds)
        case .due:
            return RingFace(look: .due, fraction: 1, secondsLeft: nil, nextStep: nil)
        case .paused:
            return RingFace(look: .paused, fraction: 0, secondsLeft: nil, nextStep: nil)
        case .inactive:
            return RingFace(look: .inactive, fraction: 0, secondsLeft: nil, nextStep: nil)
        }
    }

    static func stepped(_ look: ReminderState, left: Int64, total: Int64, steps: Int64, end: Timestamp) -> RingFace {
        guard total > 0 else { return RingFace(look: look, fraction: 0, secondsLeft: 0, nextStep: nil) }
        let clamped = min(left, total)
        let step = (clamped * steps + total - 1) / total
        // The step drops by one once no more than (step - 1)/steps of the total is left.
        let next: Timestamp? = step > 1 ? end - ((step - 1) * total) / steps : nil
        let seconds = (left + Micro.second - 1) / Micro.second
        return RingFace(look: look, fraction: Double(step) / Double(steps), secondsLeft: seconds, nextStep: next)
    }
}
