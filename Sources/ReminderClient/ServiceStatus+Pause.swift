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
        case "busy": return tr("Paused during a call or video")
        default:
            return pausedUntil > 0 ? tr("Paused until %s", time.clock(pausedUntil, relativeTo: now)) : tr("Paused until you resume")
        }
    }
}
