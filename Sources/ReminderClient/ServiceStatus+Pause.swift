import ReminderCore
import Localization

extension ServiceStatus {
    /// Why reminders are paused, in one sentence ("Paused until 17:30",
    /// "Paused during a call or video"): the words icarectl's status and the
    /// app's home view share.
    public func pauseSentence(time: TimeText, now: Timestamp) -> String {
        switch pauseReason {
        case "dnd": return tr("Paused while do not disturb is on")
        case "locked": return tr("Paused while the screen is locked")
        case "busy" where busySource == "full-screen": return tr("Paused while a window is in full screen")
        case "busy": return tr("Paused during a call or video")
        default:
            return pausedUntil > 0 ? tr("Paused until %s", time.clock(pausedUntil, relativeTo: now)) : tr("Paused until you resume")
        }
    }

    /// Whether no reminder comes today because it is Saturday or Sunday (the
    /// local day at `now`) and "weekdays only" is on: icarectl and the app say so.
    public func restsForTheWeekend(now: Timestamp, time: TimeText) -> Bool {
        let weekday = time.calendar.local(now).date.weekday  // 0 is Sunday, 6 Saturday
        return settings[.weekdaysOnly] == .bool(true) && (weekday == 0 || weekday == 6)
    }
}
