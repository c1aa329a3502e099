import ReminderCore
import Localization

/// Renders a `ServiceStatus` at a moment: the human block, the one-line
/// status-bar text, waybar's JSON and the `--json` shape.
public struct StatusFormatter: Sendable {
    public let time: TimeText
    public let style: Style
    public init(time: TimeText, style: Style = .plain) {
        self.time = time
        self.style = style
    }

    // MARK: human

    /// The block `icarectl status` prints (ends with a newline).
    public func text(_ s: ServiceStatus, now: Timestamp) -> String {
        guard !s.isKeptElsewhere else { return s.keptElsewhereSentence + "\n" }
        // TRANSLATORS: the labels of `icarectl status`, each followed by a colon.
        var rows: [(String, String)] = [(tr("State"), style.state(s.state, stateWords(s, now: now)))]
        if s.state == "break", s.breakEnds > 0 {
            rows.append((tr("Break ends"), clockAndWait(time.clockSeconds(s.breakEnds), until: s.breakEnds, now: now)))
        }
        if s.state == "paused" { rows.append((tr("Paused until"), pausedUntilWords(s, now: now))) }
        rows.append((tr("Next break"), nextBreakWords(s, now: now)))
        rows.append((tr("Today"), todayWords(s)))
        rows.append((tr("Do not disturb"), dndWords(s)))
        if s.busy { rows.append((tr("Busy"), busyWords(s))) }
        if let sound = soundWords(s) { rows.append((tr("Sound"), sound)) }
        if let phones = phoneWords(s) { rows.append((tr("Phones"), phones)) }
        if s.desktopEyeBreaks {
            rows.append((tr("GNOME breaks"), tr("eyesight breaks are on too; keep one: turn them off in Settings (Wellbeing), or stop iCare")))
        }
        let width = rows.map(\.0.count).max()! + 2
        let notes = [configProblemsText(s), sandboxText(s)].filter { !$0.isEmpty }
        return rows.map { tr("%s:", $0.0).padding(to: width) + $0.1 + "\n" }.joined() + notes.map { "\n" + $0 }.joined()
    }

    /// What cannot work in the Flatpak sandbox, under the status block; "" outside one.
    func sandboxText(_ s: ServiceStatus) -> String {
        guard !s.sandboxLimits.isEmpty else { return "" }
        return ServiceStatus.sandboxHeading + "\n" + s.sandboxSentences.map { "  " + $0 + "\n" }.joined()
    }

    /// The config file's problems under the status block, or "" when there are none.
    public func configProblemsText(_ s: ServiceStatus) -> String {
        guard !s.configProblems.isEmpty else { return "" }
        let head = tr("Problems in the config file (a setting with an error keeps its previous value):")
        return style.yellow(head) + "\n" + s.configProblems.map { "  " + $0 + "\n" }.joined()
    }

    func stateWords(_ s: ServiceStatus, now: Timestamp) -> String {
        switch s.state {
        // TRANSLATORS: the states as `icarectl status` and the watch view name them.
        case "waiting": return trc("state", "waiting")
        case "snoozed": return trc("state", "snoozed")
        case "due": return tr("due: time to rest your eyes")
        case "break": return tr("on a break")
        case "paused":
            switch s.pauseReason {
            case "user": return tr("paused by you")
            case "dnd": return tr("paused while do not disturb is on")
            case "locked": return tr("paused while the screen is locked")
            case "busy" where s.busySource == "full-screen": return tr("paused while a window is in full screen")
            case "busy": return tr("paused during a call or video")
            case "": return tr("paused")
            default: return tr("paused (%s)", s.pauseReason)
            }
        case "inactive":
            if s.restsForTheWeekend(now: now, time: time) {
                return tr("inactive (weekend)")
            }
            return tr("inactive (outside the active hours)")
        default: return s.state
        }
    }

    func pausedUntilWords(_ s: ServiceStatus, now: Timestamp) -> String {
        if s.pausedUntil > 0 {
            return clockAndWait(time.clock(s.pausedUntil, relativeTo: now), until: s.pausedUntil, now: now)
        }
        switch s.pauseReason {
        // TRANSLATORS: completes "Paused until:".
        case "dnd": return tr("do not disturb ends")
        case "locked": return tr("the screen is unlocked")
        case "busy" where s.busySource == "full-screen": return tr("the window leaves full screen")
        case "busy": return tr("the call or video ends")
        default: return tr("you resume (icarectl resume)")
        }
    }

    func nextBreakWords(_ s: ServiceStatus, now: Timestamp) -> String {
        guard s.nextBreak > 0 else { return tr("not scheduled") }
        if s.state == "due" {
            let ago = s.nextBreak < now ? (now - s.nextBreak) / Micro.second : 0
            return tr("due since %s (%s ago)", time.clock(s.nextBreak, relativeTo: now), TimeText.span(ago))
        }
        return clockAndWait(time.clock(s.nextBreak, relativeTo: now), until: s.nextBreak, now: now)
    }

    /// `14:32, in 12m 30s`: when `t` comes, as `clock`, and how long until then.
    func clockAndWait(_ clock: String, until t: Timestamp, now: Timestamp) -> String {
        tr("%s, in %s", clock, TimeText.span(TimeText.secondsUntil(t, from: now)))
    }

    func todayWords(_ s: ServiceStatus) -> String {
        s.todayWords
    }

    /// `on (gnome)`, `on`, `off`.
    func dndWords(_ s: ServiceStatus) -> String {
        guard s.doNotDisturb else { return trc("do not disturb", "off") }
        return s.doNotDisturbSource.isEmpty ? trc("do not disturb", "on") : tr("on (%s)", s.doNotDisturbSource)
    }

    /// `video (org.mozilla.firefox: Playing video)`, `microphone (Firefox)`, `video`, `yes`.
    func busyWords(_ s: ServiceStatus) -> String {
        let what: String
        switch s.busySource {
        case "": what = trc("busy", "yes")
        case "camera": what = trc("busy source", "camera")
        case "microphone": what = trc("busy source", "microphone")
        case "screen-share": what = trc("busy source", "screen sharing")
        case "video": what = trc("busy source", "video")
        case "full-screen": what = trc("busy source", "full screen")
        default: what = s.busySource
        }
        return s.busyReason.isEmpty ? what : tr("%s (%s)", what, s.busyReason)
    }

    /// Who plays the reminder's and the break's end's sounds; nil when the service does not say.
    func soundWords(_ s: ServiceStatus) -> String? {
        switch s.soundPlayedBy {
        case "": return nil
        // TRANSLATORS: completes "Sound:" in `icarectl status`.
        case "notification-server": return tr("played by the notification server")
        case "icared": return tr("played by iCare")
        case "none":
            return s.settings[.sound] == .bool(false) ? trc("sound", "off") : tr("off (the desktop's event sounds are off)")
        default: return s.soundPlayedBy
        }
    }

    /// The phones and whether reminders tap them; nil when there are none and the setting is off.
    func phoneWords(_ s: ServiceStatus) -> String? {
        let list = s.phones.joined(separator: ", ")
        switch (s.phoneReminders, s.phones.isEmpty) {
        case (false, true): return nil
        // TRANSLATORS: completes "Phones:" in `icarectl status`; %s is a list like "Pixel 7 (KDE Connect)".
        case (true, false): return tr("%s, tapped with each reminder", list)
        case (true, true): return tr("none linked yet (pair one in KDE Connect or GSConnect)")
        case (false, false): return tr("%s (turn on with: icarectl set PhoneReminders on)", list)
        }
    }

    // MARK: status bars

    /// The short text for a bar (`--format plain`, waybar's `text`): `13m`,
    /// `13m snoozed`, `break due`, `on break`, `paused`, `paused 25m`, `off`.
    public func short(_ s: ServiceStatus, now: Timestamp) -> String {
        switch s.state {
        case "waiting": return TimeText.minutes(TimeText.secondsUntil(s.nextBreak, from: now))
        // TRANSLATORS: status-bar texts: keep them short.
        case "snoozed": return tr("%s snoozed", TimeText.minutes(TimeText.secondsUntil(s.nextBreak, from: now)))
        case "due": return tr("break due")
        case "break": return tr("on break")
        case "paused": return s.pausedUntil > 0 ? tr("paused %s", TimeText.minutes(TimeText.secondsUntil(s.pausedUntil, from: now))) : tr("paused")
        case "inactive": return trc("status bar", "off")
        default: return s.state
        }
    }

    /// One sentence for a tooltip.
    public func headline(_ s: ServiceStatus, now: Timestamp) -> String {
        guard !s.isKeptElsewhere else { return s.keptElsewhereSentence }
        let next = s.nextBreak > 0 ? time.clock(s.nextBreak, relativeTo: now) : ""
        let inMinutes = TimeText.minutes(TimeText.secondsUntil(s.nextBreak, from: now))
        switch s.state {
        case "waiting": return tr("Next break at %s, in %s", next, inMinutes)
        case "snoozed": return tr("Snoozed: next break at %s, in %s", next, inMinutes)
        case "due":
            return trn("Time for a break: look at something 20 feet (6 m) away for %d second",
                       "Time for a break: look at something 20 feet (6 m) away for %d seconds", Int(s.breakDuration), s.breakDuration)
        case "break": return tr("On a break until %s", time.clockSeconds(s.breakEnds))
        case "paused": return s.pauseSentence(time: time, now: now)
        case "inactive": return next.isEmpty ? tr("Outside the active hours") : tr("Outside the active hours; next break %s", next)
        default: return tr("State: %s", s.state)
        }
    }

    /// How far along the current countdown is, 0–100: the interval while
    /// waiting or snoozed, the break during one, 100 when due, else 0.
    public func percentage(_ s: ServiceStatus, now: Timestamp) -> Int64 {
        func elapsed(_ end: Timestamp, _ length: UInt32) -> Int64 {
            guard length > 0 else { return 0 }
            let left = min(Int64(length), TimeText.secondsUntil(end, from: now))
            return (Int64(length) - left) * 100 / Int64(length)
        }
        switch s.state {
        case "waiting", "snoozed": return elapsed(s.nextBreak, s.realInterval)
        case "due": return 100
        case "break": return elapsed(s.breakEnds, s.breakDuration)
        default: return 0
        }
    }

    /// waybar's custom-module JSON; `nil` status means the service is not running
    /// (empty text, which hides the module).
    public func waybar(_ s: ServiceStatus?, now: Timestamp) -> JSON {
        guard let s else {
            return .object([("text", .string("")), ("alt", .string("stopped")), ("tooltip", .string(tr("iCare is not running"))),
                             ("class", .string("stopped")), ("percentage", .int(0))])
        }
        // Another login's icared keeps the breaks: hidden as when stopped, the tooltip says where.
        guard !s.isKeptElsewhere else {
            return .object([("text", .string("")), ("alt", .string("elsewhere")), ("tooltip", .string(s.keptElsewhereSentence)),
                             ("class", .string("elsewhere")), ("percentage", .int(0))])
        }
        let tooltip = headline(s, now: now) + "\n" + tr("Today: %s", todayWords(s))
        return .object([("text", .string(short(s, now: now))), ("alt", .string(s.state)), ("tooltip", .string(tooltip)),
                        ("class", .string(s.state)), ("percentage", .int(percentage(s, now: now)))])
    }

    /// The `status --json` shape (see `JSONShapes.swift`); `nil` means not running.
    public func json(_ s: ServiceStatus?, now: Timestamp) -> JSON {
        guard let s else { return .object([("running", .bool(false))] + JSON.time("now", now, time)) }
        guard !s.isKeptElsewhere else {
            return .object([("running", .bool(true)), ("kept_by", .string(s.keptBy)), ("service_version", .string(s.version))]
                           + JSON.time("now", now, time))
        }
        var m: [(String, JSON)] = [("running", .bool(true)), ("state", .string(s.state)), ("pause_reason", .string(s.pauseReason))]
        m += JSON.time("next_break", s.nextBreak, time)
        m.append(("seconds_to_next_break", .int(TimeText.secondsUntil(s.nextBreak, from: now))))
        m += JSON.time("break_ends", s.breakEnds, time)
        m += JSON.time("paused_until", s.pausedUntil, time)
        m += [("completed_today", .int(Int64(s.completedToday))), ("skipped_today", .int(Int64(s.skippedToday))),
              ("missed_today", .int(Int64(s.missedToday))),
              ("do_not_disturb", .bool(s.doNotDisturb)), ("do_not_disturb_source", .string(s.doNotDisturbSource)),
              ("service_version", .string(s.version))]
        m += JSON.time("now", now, time)
        m.append(("config_problems", .array(s.configProblems.map { .string($0) })))
        m += [("busy", .bool(s.busy)), ("busy_source", .string(s.busySource)), ("busy_reason", .string(s.busyReason)),
              ("desktop_eye_breaks", .bool(s.desktopEyeBreaks)), ("sound_played_by", .string(s.soundPlayedBy))]
        m.append(("phones", .array(s.phones.map { .string($0) })))
        m.append(("sandbox_limits", .array(s.sandboxLimits.map { .string($0) })))
        return .object(m)
    }
}

extension String {
    /// Pads with spaces on the right to `width` characters.
    func padding(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
