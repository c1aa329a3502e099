import ReminderCore
import Localization
import RingDrawing

/// The words of the status item: its tooltip, label and menu. Short and
/// friendly; every one goes through gettext.
public enum StatusItemTexts {
    static let title = "iCare"

    /// The text beside the icon: the time to the next break, or the break's seconds.
    static func label(_ face: RingFace) -> String {
        guard let seconds = face.secondsLeft else { return face.look == .due ? tr("Break due") : "" }
        if face.look == .break {
            // TRANSLATORS: beside the panel icon during a break; s is seconds.
            return tr("%d s", seconds)
        }
        // TRANSLATORS: beside the panel icon: minutes to the next break (rounded up).
        return tr("%d min", max(1, (seconds + 59) / 60))
    }

    /// What the ring shows, for screen readers (`IconAccessibleDesc`):
    /// the time it counts down, or the state it stands for.
    static func accessibleDescription(_ status: ReminderStatus, _ face: RingFace, clock: (Timestamp) -> String) -> String {
        let seconds = Int(face.secondsLeft ?? 0)
        let minutes = max(1, (seconds + 59) / 60)
        switch status.state {
        case .waiting:
            // TRANSLATORS: read by screen readers for the panel icon: minutes to the next break (rounded up).
            return trn("Next break in %d minute", "Next break in %d minutes", minutes, minutes)
        case .snoozed:
            return trn("Snoozed: next break in %d minute", "Snoozed: next break in %d minutes", minutes, minutes)
        case .due:
            return tr("Break due")
        case .break:
            // TRANSLATORS: read by screen readers for the panel icon during a break.
            return trn("Break: %d second left", "Break: %d seconds left", seconds, seconds)
        case .paused, .inactive:
            return headline(status, clock: clock)
        }
    }

    /// The tooltip's text: the full status and today's tally.
    static func tooltip(_ status: ReminderStatus, clock: (Timestamp) -> String) -> String {
        let text = headline(status, clock: clock)
        switch status.state {
        case .waiting, .snoozed, .due, .break:
            // TRANSLATORS: the panel icon's tooltip: the status (e.g. "Next break at 14:20"), then today's tally.
            // TRANSLATORS: today's breaks in the tooltip, e.g. "3 completed, 1 skipped today".
            return tr("%s · %s", text, tr("%s today", TallyText.today(status)))
        case .paused, .inactive:
            return text
        }
    }

    /// The status in a few words: the tooltip's start, and the title of the
    /// brief notification a left click shows.
    static func headline(_ status: ReminderStatus, clock: (Timestamp) -> String) -> String {
        switch status.state {
        case .waiting:
            // TRANSLATORS: the panel icon's status; %s is a clock time.
            return tr("Next break at %s", clock(status.nextBreak))
        case .snoozed:
            return tr("Snoozed until %s", clock(status.nextBreak))
        case .due:
            return tr("Time for an eye break")
        case .break:
            return tr("Break until %s", clock(status.breakEnds))
        case .paused:
            switch status.pauseReason {
            case .dnd: return tr("Paused — do not disturb")
            case .locked: return tr("Paused — screen locked")
            case .busy: return tr("Paused — in a call or a video")
            default:
                if status.pausedUntil > 0 { return tr("Paused until %s", clock(status.pausedUntil)) }
                return tr("Paused")
            }
        case .inactive:
            if status.nextBreak > 0 { return tr("Outside active hours · next break at %s", clock(status.nextBreak)) }
            return tr("Outside active hours")
        }
    }

    // The menu.
    /// The first item: what a left click on the icon does (start the due
    /// break, else show the status), labelled with that.
    static func activateLabel(_ status: ReminderStatus, clock: (Timestamp) -> String) -> String {
        // TRANSLATORS: the first menu item while a break is due; a click starts it.
        status.state == .due ? tr("Time for an eye break — start now") : headline(status, clock: clock)
    }
    static func tally(_ status: ReminderStatus) -> String {
        tr("Today: %s", TallyText.today(status))
    }
    static var interval: String { tr("Break every") }
    static func minutes(_ m: UInt32) -> String { tr("%d min", m) }
    static var breakLength: String { tr("Break length") }
    static func seconds(_ s: UInt32) -> String { tr("%d s", s) }
    static var snoozeLength: String { tr("Snooze length") }
    static var weekdaysOnly: String { tr("Weekdays only") }
    static var sound: String { tr("Sound") }
    // TRANSLATORS: a check item: each reminder also taps the phones KDE Connect or GSConnect link.
    static var phoneReminders: String { tr("Remind my phone too") }
    // TRANSLATORS: under "Remind my phone too"; %s is a list like "Pixel 7 (KDE Connect)".
    static func phones(_ phones: [String]) -> String { tr("Phones: %s", phones.joined(separator: ", ")) }
    /// Shown while something a person would expect does not work here; it opens the app's page "This desktop".
    public static var cannotSee: String { tr("iCare cannot see everything here…") }
    static var doNotDisturb: String { tr("When do not disturb is on") }
    static func policy(_ p: DndPolicy) -> String {
        switch p {
        case .pause: return tr("Pause reminders")
        case .defer: return tr("Hold reminders until it ends")
        case .ignore: return tr("Remind as usual")
        }
    }
}
