/// The passing of time: what falls due between two events, and in which order.
extension ReminderEngine {
    /// A time-driven change.
    enum Step {
        case breakEnds, pauseEnds, reminder, unanswered, boundary, graceEnds
    }

    /// The pending time-driven changes as of `clock`, each at its instant.
    func transitions() -> [(at: Timestamp, step: Step)] {
        var list: [(at: Timestamp, step: Step)] = []
        switch phase {
        case .running(_, let ends): list.append((ends, .breakEnds))
        case .waiting(_, let next): list.append((next, .reminder))
        case .snoozed(_, let until): list.append((until, .reminder))
        case .due(_, let since, let held):
            // Held (DND) or answered by an absence: never turned into a skip.
            if !held, awaySince == nil { list.append((since + interval, .unanswered)) }
        case .off: break
        }
        if let until = userPause?.until { list.append((until, .pauseEnds)) }
        if let b = boundary() { list.append((b, .boundary)) }
        if let g = graceTransition() { list.append((g, .graceEnds)) }
        return list
    }

    /// The next edge of the active hours; `clock` itself when the calendar
    /// changed under the engine (time zone) and the current side is wrong.
    func boundary() -> Timestamp? {
        let sched = schedule
        if sched.isActive(clock) != active { return clock }
        return active ? sched.activeEnd(containing: clock) : sched.nextActiveStart(after: clock)
    }

    /// Applies every change due up to `now`, in time order. A reminder due
    /// before `now` goes out at `now`, so a long gap yields at most one
    /// missed record and one fresh reminder. A `now` before `clock` moves
    /// every pending instant back by the difference.
    mutating func advance(to now: Timestamp, _ out: inout Outbox) {
        if now < clock {
            shift(by: now - clock)
            clock = now
            return
        }
        for _ in 0..<100_000 {
            guard let next = transitions().min(by: { $0.at < $1.at }), next.at <= now else { break }
            clock = max(next.at, clock)
            perform(next.step, at: clock, now: now, &out)
            settle(at: clock, &out)
        }
        clock = now
    }

    /// One time-driven change at `t`, while catching up to `now`.
    mutating func perform(_ step: Step, at t: Timestamp, now: Timestamp, _ out: inout Outbox) {
        switch step {
        case .breakEnds:
            guard case .running(let start, let ends) = phase else { return }
            record(.completed, at: ends, seconds: UInt32(clamping: (ends - start) / Micro.second), &out)
            out.effects.append(.breakCompleted(at: ends))
            phase = .off
            // Time away that overlapped the break counts from its end: the break already holds that rest.
            if let away = awaySince { awaySince = max(away, ends) }
        case .pauseEnds:
            userPause = nil
            end(.user)
        case .reminder:
            phase = .due(start: phase.intervalStart ?? t, since: now, held: holding)
            if !holding { out.announce = true }
        case .unanswered:
            record(.missed, at: t, seconds: 0, &out)
            out.effects.append(.breakMissed(at: t))
            phase = .due(start: t, since: now, held: holding)
            if !holding { out.announce = true }
        case .boundary:
            break
        case .graceEnds:
            graceUntil = nil
        }
    }

    /// Brings the phase in line with the causes and the active hours at `t`:
    /// a blocked cycle stops, a free one starts a full interval at `t`, a
    /// held reminder whose hold ended goes out at `t`.
    mutating func settle(at t: Timestamp, _ out: inout Outbox) {
        active = schedule.isActive(t)
        if let g = graceUntil, t >= g { graceUntil = nil }
        let blocked = !causes.isEmpty || !active
        switch phase {
        case .waiting, .due, .snoozed:
            if blocked { phase = .off }
        case .off:
            if !blocked { phase = .waiting(start: t, next: t + interval) }
        case .running:
            break
        }
        if case .due(let start, _, true) = phase, !holding {
            phase = .due(start: start, since: t, held: false)
            out.announce = true
        }
    }

    /// Moves every pending instant by `d` (negative: the clock went back).
    mutating func shift(by d: Int64) {
        phase = phase.shifted(by: d)
        if let until = userPause?.until { userPause = UserPause(until: until + d) }
        if let s = idleSince { idleSince = s + d }
        if let s = awaySince { awaySince = s + d }
        if let s = busyEnded { busyEnded = s + d }
        if let s = graceUntil { graceUntil = s + d }
    }
}
