import Localization
/// What each event does, once time has been brought up to it.
extension ReminderEngine {
    mutating func apply(_ event: ReminderEvent, at now: Timestamp, stamp: Timestamp,
                        _ out: inout Outbox) throws(ReminderError) {
        switch event {
        case .timer: break
        case .startBreak: try startBreak(at: now, &out)
        case .skip: try skip(at: now, &out)
        case .snooze(let seconds): try snooze(seconds, at: now, &out)
        case .pause(let seconds): pause(seconds, at: now)
        case .resume: resume()
        case .settingsChanged(let new): change(to: new)
        case .doNotDisturb(let on): setDoNotDisturb(on)
        case .locked(let on): setAway(\.locked, on, at: now, &out)
        case .sleep(let on): setAway(\.asleep, on, at: now, &out)
        case .idle(true): idleObserved = true; beginIdle(since: stamp)
        case .idle(false): idleObserved = false; endIdle(at: now, &out)
        case .busy(let on, let grace): setBusy(on, grace: grace, at: now)
        case .desktopBreak(let seconds): desktopBreakTaken(seconds, at: now, &out)
        case .clockChanged: tally.rebase(to: now, calendar: calendar)
        }
    }

    /// `StartBreak`: from any state but `break`; pauses stay in force after it.
    mutating func startBreak(at now: Timestamp, _ out: inout Outbox) throws(ReminderError) {
        if case .running = phase { throw .invalidState(tr("Cannot start a break while a break is running.")) }
        let ends = now + Micro.seconds(settings.breakDuration)
        phase = .running(start: now, ends: ends)
        markPresent()
        out.effects.append(.breakStarted(ends: ends))
    }

    /// `Skip`: a skipped record and a full interval from now; also skips a running break.
    mutating func skip(at now: Timestamp, _ out: inout Outbox) throws(ReminderError) {
        if case .running = phase {} else { try requireCycle(.skip) }
        record(.skipped, at: now, seconds: 0, &out)
        out.effects.append(.breakSkipped(at: now))
        phase = .off  // settle starts the full interval now, unless paused or inactive
        markPresent()
    }

    /// `Snooze`: the reminder comes back at now + seconds (also from `waiting`,
    /// to exactly that time; scaled like the interval); from a break, the
    /// countdown ends unrecorded.
    mutating func snooze(_ seconds: UInt32, at now: Timestamp, _ out: inout Outbox) throws(ReminderError) {
        try requireCycle(.snooze)
        let until = now + timeScale.wait(seconds == 0 ? settings.snoozeDuration : seconds)
        phase = .snoozed(start: now, until: until)
        markPresent()
        out.effects.append(.breakSnoozed(until: until))
    }

    /// `Pause`: replaces any earlier user pause (a timed one scaled like the
    /// interval); a running countdown ends unrecorded.
    mutating func pause(_ seconds: UInt32, at now: Timestamp) {
        userPause = UserPause(until: seconds == 0 ? nil : now + timeScale.wait(seconds))
        begin(.user)
        if case .running = phase { phase = .off }
    }

    /// `Resume`: ends a user pause (a full interval starts once no cause
    /// holds); a no-op when not user-paused.
    mutating func resume() {
        guard userPause != nil else { return }
        userPause = nil
        end(.user)
    }

    /// New settings, applied at once. A new `Interval` moves a countdown to
    /// its interval's start + the new value (a snooze keeps its time, a
    /// running break keeps its end); active hours and `DndPolicy` are
    /// re-evaluated by `settle`.
    mutating func change(to new: Settings) {
        let old = settings
        settings = new
        if new.interval != old.interval, case .waiting(let start, _) = phase {
            phase = .waiting(start: start, next: start + interval)
        }
        syncCauses()
    }

    /// Do-not-disturb as observed; what it does depends on `DndPolicy`.
    mutating func setDoNotDisturb(_ on: Bool) {
        guard on != doNotDisturb else { return }
        doNotDisturb = on
        syncCauses()
    }

    /// Makes the `dnd` and `busy` pause causes hold exactly when do-not-disturb
    /// or busy is on under a policy of `pause` (in that order), and drops the
    /// busy grace under any other policy than `defer`.
    mutating func syncCauses() {
        sync(.dnd, holds: doNotDisturb && settings.dndPolicy == .pause)
        sync(.busy, holds: busy && settings.busyPolicy == .pause)
        if settings.busyPolicy != .defer { graceUntil = nil }
    }

    /// Makes `cause` hold exactly when `holds`; when it begins, a running
    /// countdown ends unrecorded.
    private mutating func sync(_ cause: PauseReason, holds: Bool) {
        if holds, !causes.contains(cause) {
            begin(cause)
            if case .running = phase { phase = .off }
        } else if !holds, causes.contains(cause) {
            end(cause)
        }
    }

    /// Lock or sleep begins or ends. Both pause as `locked`; a running break
    /// goes on. When the last of them ends, the absence may be a natural
    /// break, and a full interval starts (once no other cause holds).
    mutating func setAway(_ flag: WritableKeyPath<ReminderEngine, Bool>, _ on: Bool, at now: Timestamp,
                          _ out: inout Outbox) {
        guard self[keyPath: flag] != on else { return }
        self[keyPath: flag] = on
        if on {
            awaySince = min(awaySince ?? now, now)
            if !causes.contains(.locked) { begin(.locked) }
        } else if !locked && !asleep {
            end(.locked)
            endAbsence(at: now, restart: true, &out)
        }
    }

    /// The person went idle at `since`. Counted only while the cycle runs
    /// (waiting, due, snoozed) or during a lock or sleep; not during a
    /// break, a user or DND pause, or inactive hours, and never while busy
    /// (a call is not a rest). Never earlier than the current interval's
    /// start (rest before it was already counted) or the last call's end.
    mutating func beginIdle(since: Timestamp) {
        guard idleSince == nil, !busy else { return }
        let cycling = phase.isCycling && causes.isEmpty && active
        guard cycling || locked || asleep else { return }
        var start = restCountsFrom(min(since, clock))
        if let s = phase.intervalStart { start = max(start, s) }
        idleSince = start
        awaySince = min(awaySince ?? start, start)
    }

    /// The person is back from idle: a natural break if away long enough
    /// (then a full interval, answering a due reminder); otherwise the
    /// schedule goes on as it was.
    mutating func endIdle(at now: Timestamp, _ out: inout Outbox) {
        guard idleSince != nil else { return }
        idleSince = nil
        endAbsence(at: now, restart: false, &out)
    }

    /// Ends the absence if nothing keeps it: records a natural break when
    /// the time away inside the current active stretch is at least
    /// `BreakDuration` (and none of it in a call), and restarts the cycle when asked or when it was one.
    mutating func endAbsence(at now: Timestamp, restart: Bool, _ out: inout Outbox) {
        guard !locked, !asleep, idleSince == nil, let since = awaySince else { return }
        awaySince = nil
        var natural = false
        let sched = schedule
        if sched.isActive(now), !busy {
            let from = restCountsFrom(max(since, sched.activeStart(containing: now) ?? since))
            let rested = now - from
            if rested >= Micro.seconds(settings.breakDuration) {
                let seconds = min(UInt32(clamping: rested / Micro.second), Self.naturalRestCap)
                record(.natural, at: now, seconds: seconds, &out)
                natural = true
            }
        }
        if (natural || restart), phase.isCycling { phase = .off }
    }

    /// The person acted (start, skip, snooze): not idle any more.
    mutating func markPresent() {
        idleSince = nil
        if !locked, !asleep { awaySince = nil }
    }

    /// The calls that need the cycle running, for their refusals.
    enum CycleCall { case skip, snooze }

    /// Throws unless the cycle may run (not paused, not inactive); one whole
    /// sentence per call and cause, so each translates as a sentence.
    func requireCycle(_ call: CycleCall) throws(ReminderError) {
        if let reason = causes.last {
            switch (reason, call) {
            case (.user, .skip): throw .invalidState(tr("Cannot skip while paused; resume first."))
            case (.user, .snooze): throw .invalidState(tr("Cannot snooze while paused; resume first."))
            case (.dnd, .skip):
                throw .invalidState(tr("Cannot skip while paused for do-not-disturb; reminders come back when it ends."))
            case (.dnd, .snooze):
                throw .invalidState(tr("Cannot snooze while paused for do-not-disturb; reminders come back when it ends."))
            case (.busy, .skip):
                throw .invalidState(tr("Cannot skip while paused for a call or video; reminders come back when it ends."))
            case (.busy, .snooze):
                throw .invalidState(tr("Cannot snooze while paused for a call or video; reminders come back when it ends."))
            case (.locked, .skip), (.none, .skip):
                throw .invalidState(tr("Cannot skip while paused because the screen is locked."))
            case (.locked, .snooze), (.none, .snooze):
                throw .invalidState(tr("Cannot snooze while paused because the screen is locked."))
            }
        }
        if !active {
            switch call {
            case .skip: throw .invalidState(tr("Cannot skip while inactive; reminders are off outside the active hours."))
            case .snooze: throw .invalidState(tr("Cannot snooze while inactive; reminders are off outside the active hours."))
            }
        }
    }
}
