import ReminderCore
import ReminderClient
import Localization

/// The words of the app's home view. Many are the panel menu's and
/// icarectl's own (the same msgids, so the same Dutch); short and honest.
enum HomeTexts {
    static var appName: String { "iCare" }

    /// The state in words, the line under the ring.
    static func state(_ s: ServiceStatus, now: Timestamp, time: TimeText) -> String {
        switch s.state {
        case "waiting": return tr("Next break at %s", time.clock(s.nextBreak, relativeTo: now))
        case "snoozed": return tr("Snoozed until %s", time.clock(s.nextBreak, relativeTo: now))
        case "due": return tr("Time for an eye break")
        case "break": return tr("Break until %s", time.clockSeconds(s.breakEnds))
        case "paused": return s.pauseSentence(time: time, now: now)
        case "inactive":
            if s.restsForTheWeekend(now: now, time: time) {
                // TRANSLATORS: the app's home view on Saturday and Sunday with "weekdays only" on.
                return tr("Weekend: no reminders today")
            }
            return tr("Outside active hours")
        default: return s.state
        }
    }

    /// What the break asks of the person, or what else holds reminders back; "" when nothing.
    static func detail(_ s: ServiceStatus, now: Timestamp, time: TimeText) -> String {
        switch s.state {
        case "due", "break":
            return trn("Look at something 20 feet (6 m) away for %d second.",
                       "Look at something 20 feet (6 m) away for %d seconds.", Int(s.breakDuration), s.breakDuration)
        case "inactive" where s.nextBreak > 0:
            // TRANSLATORS: %s is a time, maybe with its day ("tomorrow 09:20").
            return tr("The first break is at %s.", time.clock(s.nextBreak, relativeTo: now))
        default: break
        }
        if s.busy && s.state != "paused" {
            if s.busySource == "full-screen" {
                // TRANSLATORS: the app's home view while a window fills the screen (GNOME shows no reminder over it).
                return tr("Busy: a window is in full screen.")
            }
            // TRANSLATORS: the app's home view while a call or video goes on and reminders still come.
            return tr("Busy: in a call or a video.")
        }
        if s.doNotDisturb && s.state != "paused" {
            return s.settings[.dndPolicy] == .string("defer")
                ? tr("Do not disturb is on: reminders wait until it ends.")
                : tr("Do not disturb is on.")
        }
        return ""
    }

    /// The big text in the ring: minutes to the next break, or the break's countdown.
    static func countdown(_ s: ServiceStatus, now: Timestamp) -> String {
        switch s.state {
        case "waiting", "snoozed":
            let seconds = TimeText.secondsUntil(s.nextBreak, from: now)
            return tr("%d min", max(1, (seconds + 59) / 60))
        case "break": return TimeText.countdown(TimeText.secondsUntil(s.breakEnds, from: now))
        default: return ""
        }
    }

    // The actions are the panel menu's, word for word.
    static var startBreak: String { ActionTexts.startBreak }
    static func snooze(_ seconds: UInt32) -> String { ActionTexts.snooze(seconds: seconds) }
    static var skip: String { ActionTexts.skip }
    static var pause30: String { ActionTexts.pause30 }
    static var pause60: String { ActionTexts.pause60 }
    static var pauseUntilResumed: String { ActionTexts.pauseUntilResumed }
    static var resume: String { ActionTexts.resume }
    static var preferences: String { tr("Preferences") }

    static var today: String { tr("Today") }
    static func tally(_ s: ServiceStatus) -> String { s.todayWords }
    static var noBreaksYet: String { tr("No breaks yet today.") }
    /// One record of today: `14:20  completed (20 s)`.
    static func record(_ r: BreakRecord, time: TimeText) -> String {
        let what: String
        switch r.outcome {
        // TRANSLATORS: outcomes of a break in the app's list of today's breaks.
        case .completed: what = trc("outcome", "completed")
        case .skipped: what = trc("outcome", "skipped")
        case .missed: what = trc("outcome", "missed")
        case .natural: what = trc("outcome", "rested away from the screen")
        default: what = r.outcome.rawValue
        }
        return r.outcome == .skipped || r.outcome == .missed ? tr("%s  %s", time.clock(r.at), what) : tr("%s  %s (%d s)", time.clock(r.at), what, r.seconds)
    }
    static var lastWeek: String { tr("Last 7 days") }
    /// A day of the chart, for screen readers: `Tuesday: 12 completed, 1 skipped`.
    static func day(_ name: String, _ words: String) -> String {
        tr("%s: %s", name, words)
    }

    /// A day's counts under its bars: completed/not taken.
    static func dayCounts(completed: Int, notTaken: Int) -> String {
        // TRANSLATORS: under each day of the app's 7-day chart: completed breaks/breaks skipped or missed.
        tr("%d/%d", completed, notTaken)
    }
    /// How to read the chart.
    static var chartLegend: String {
        tr("Filled bars: completed. Outlined bars: skipped or missed. Under each day: completed/not taken.")
    }

    static var desktopEyeBreaks: String {
        tr("GNOME's own eyesight breaks are on too. Keep one: turn them off in Settings (Wellbeing), or stop iCare.")
    }
    static var configProblems: String { tr("Problems in the config file (a setting with an error keeps its previous value):") }

    static var notRunningTitle: String { tr("iCare is not running") }
    static var starting: String { tr("Starting iCare…") }
    // TRANSLATORS: the app's title while the icared of another login keeps the breaks (no systemd user session).
    static var keptElsewhereTitle: String { tr("iCare runs in another session") }
    static var tryAgain: String { tr("Try again") }
}
