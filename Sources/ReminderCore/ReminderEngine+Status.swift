/// What the properties show, derived from the engine's state.
extension ReminderEngine {
    /// The D-Bus-visible status at the last event.
    public var status: ReminderStatus {
        let state = self.state
        var heldDue = false
        var breakEnds: Timestamp = 0
        if case .due(_, _, let held) = phase, state == .due { heldDue = held }
        if case .running(_, let ends) = phase { breakEnds = ends }
        return ReminderStatus(
            state: state,
            pauseReason: state == .paused ? causes.last ?? PauseReason.none : PauseReason.none,
            nextBreak: nextBreak(in: state),
            breakEnds: breakEnds,
            pausedUntil: userPause?.until ?? 0,
            completedToday: tally.completed,
            skippedToday: tally.skipped,
            missedToday: tally.missed,
            doNotDisturb: doNotDisturb,
            reminderHeld: heldDue)
    }

    /// `State`: break over paused over inactive over the cycle.
    var state: ReminderState {
        if case .running = phase { return .break }
        if !causes.isEmpty { return .paused }
        if !active { return .inactive }
        switch phase {
        case .due: return .due
        case .snoozed: return .snoozed
        case .waiting, .running, .off: return .waiting
        }
    }

    /// `NextBreak` as documented on `ReminderStatus.nextBreak`.
    func nextBreak(in state: ReminderState) -> Timestamp {
        let sched = schedule
        switch phase {
        case .due(_, let since, _) where state == .due:
            return since
        case .waiting(_, let next) where state == .waiting:
            return sched.projected(next, from: clock) ?? 0
        case .snoozed(_, let until) where state == .snoozed:
            return sched.projected(until, from: clock) ?? 0
        default:
            break
        }
        if state == .inactive { return sched.firstReminder(after: clock) ?? 0 }
        // A break or a pause: the cycle restarts when both are over.
        var restart = clock
        if case .running(_, let ends) = phase { restart = ends }
        if !causes.isEmpty {
            guard causes == [.user], let until = userPause?.until else { return 0 }
            restart = max(restart, until)
        }
        return sched.reminder(afterIntervalFrom: restart) ?? 0
    }
}
