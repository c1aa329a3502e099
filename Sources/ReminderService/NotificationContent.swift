import DBusKit
import ReminderCore

/// The words, buttons and hints of each notification iCare shows, shaped by
/// the server's profile (see `NotificationProfile`): one `Notify` call's
/// arguments but the ids.
struct NotificationContent: Equatable {
    var summary: String
    var body: String
    /// Key and label pairs, flattened as `Notify` takes them.
    var actions: [String]
    var hints: [(String, DBusValue)]
    /// expire_timeout in ms (0: until answered).
    var timeout: Int32

    static func == (a: NotificationContent, b: NotificationContent) -> Bool {
        a.summary == b.summary && a.body == b.body && a.actions == b.actions && a.timeout == b.timeout
    }

    /// How long the "break complete" stays, in ms.
    static let completeTimeout: Int32 = 5_000

    private static func common(_ icon: NotificationIcon) -> [(String, DBusValue)] {
        var hints: [(String, DBusValue)] = [("desktop-entry", .string(Texts.desktopEntry)), ("category", .string(Texts.category))]
        if let path = icon.imagePath { hints.append(("image-path", .string(path))) }
        return hints
    }

    /// `sound-name` when Sound is on; else ask the server for silence.
    private static func sound(_ name: String, _ settings: Settings, quiet: Bool = false) -> (String, DBusValue) {
        settings.sound && !quiet ? ("sound-name", .string(name)) : ("suppress-sound", .bool(true))
    }

    /// The reminder: Start, Snooze and Skip, each once; `default` (the body click) only where the server
    /// takes it for the body and never draws it, with an empty label (Start's where an empty one is dropped).
    static func reminder(_ profile: NotificationProfile, _ settings: Settings, _ icon: NotificationIcon, quiet: Bool) -> NotificationContent {
        let seconds = settings.breakDuration
        var hints = common(icon) + [("urgency", .byte(1)), sound(Texts.reminderSound, settings, quiet: quiet)]
        if profile.residentReminder { hints.insert(("resident", .bool(true)), at: hints.count - 1) }
        guard profile.actions else {
            return NotificationContent(summary: Texts.reminderSummary, body: Texts.reminderBodyWithoutButtons(breakSeconds: seconds),
                                       actions: [], hints: hints, timeout: 0)
        }
        var actions = profile.bodyClickStarts ? ["default", profile.labelledDefault ? Texts.startLabel : ""] : []
        actions += ["start", Texts.startLabel, "snooze", Texts.snoozeLabel(seconds: settings.snoozeDuration), "skip", Texts.skipLabel]
        return NotificationContent(summary: Texts.reminderSummary, body: Texts.reminderBody(breakSeconds: seconds),
                                   actions: actions, hints: hints, timeout: 0)
    }

    /// The countdown: the seconds left in the summary on every server, the progress as `value` only where it
    /// stays a bar under the text, and "End break". Where it is sent once (`countsEachSecond` false), the
    /// summary asks for the seconds left when it goes, words that stay true while the ring counts them.
    static func countdown(_ profile: NotificationProfile, _ settings: Settings, _ icon: NotificationIcon,
                          ends: Timestamp, now: Timestamp) -> NotificationContent {
        let left = max(0, ends - now)
        // The break's length; a BreakDuration changed during the break does not make it go backwards.
        let total = max(Int64(settings.breakDuration) * Micro.second, left)
        let secondsLeft = (left + Micro.second / 2) / Micro.second
        var hints = common(icon) + [("urgency", .byte(1)), ("suppress-sound", .bool(true)), ("resident", .bool(true))]
        if profile.progressHint {
            let percent = total > 0 ? Int32(max(0, min(100, 100 - left * 100 / total))) : 100
            hints.append(("value", .int32(percent)))
        }
        let summary = profile.countsEachSecond ? Texts.countdownSummary(secondsLeft: secondsLeft) : Texts.breakSummary(seconds: secondsLeft)
        return NotificationContent(summary: summary, body: Texts.countdownBody,
                                   actions: profile.actions ? ["end", Texts.endBreakLabel] : [], hints: hints, timeout: 0)
    }

    /// The brief "break complete": low urgency, except where a low one is never seen (`completeUrgency`).
    static func complete(_ profile: NotificationProfile, _ settings: Settings, _ icon: NotificationIcon, clock: String?,
                         quiet: Bool = false) -> NotificationContent {
        let hints = common(icon) + [("urgency", .byte(profile.completeUrgency)), ("transient", .bool(true)),
                                    sound(Texts.completeSound, settings, quiet: quiet)]
        return NotificationContent(summary: Texts.completeSummary, body: Texts.completeBody(nextAt: clock), actions: [],
                                   hints: hints, timeout: completeTimeout)
    }

    /// The status, briefly (a left click on the status item), silent.
    static func status(summary: String, body: String, _ icon: NotificationIcon) -> NotificationContent {
        let hints = common(icon) + [("urgency", .byte(0)), ("transient", .bool(true)), ("suppress-sound", .bool(true))]
        return NotificationContent(summary: summary, body: body, actions: [], hints: hints, timeout: completeTimeout)
    }

    /// The first start's notice: "Open iCare" (and the body click, where the server takes one), silent,
    /// staying as long as the server keeps a normal notification.
    static func welcome(_ profile: NotificationProfile, _ settings: Settings, _ icon: NotificationIcon,
                        clock: String) -> NotificationContent {
        let hints = common(icon) + [("urgency", .byte(1)), ("suppress-sound", .bool(true))]
        var actions = profile.actions && profile.bodyClickStarts ? ["default", profile.labelledDefault ? Texts.openAppLabel : ""] : []
        if profile.actions { actions += ["open", Texts.openAppLabel] }
        return NotificationContent(summary: Texts.welcomeSummary,
                                   body: Texts.welcomeBody(clock: clock, breakSeconds: settings.breakDuration),
                                   actions: actions, hints: hints, timeout: -1)
    }

    /// The same, marked as KDE Connect marks what it shows from a phone: KDE Connect 26.08 and later
    /// then keep it on the desktop instead of sending it to the phones (docs/phones.md). Empty, as
    /// there is no device it came from; a shell that shows the hint's value shows nothing.
    func keptFromPhones(_ on: Bool) -> NotificationContent {
        guard on else { return self }
        var copy = self
        copy.hints.append(("x-kdeconnect-source-device", .string("")))
        return copy
    }

    /// The same with critical urgency, the only one GNOME Shell shows as a banner over a full-screen
    /// window (docs/desktops.md, "A full-screen window"). Still taken away as the normal one is.
    func urgent(_ on: Bool) -> NotificationContent {
        guard on else { return self }
        var copy = self
        copy.hints = hints.map { $0.0 == "urgency" ? ("urgency", .byte(2)) : $0 }
        return copy
    }

    /// What takes a notification away on a server where `CloseNotification` strands it: the same words,
    /// no buttons, expiring at once.
    static func vanishing(_ last: NotificationContent) -> NotificationContent {
        NotificationContent(summary: last.summary, body: last.body, actions: [],
                            hints: last.hints.filter { !["sound-name", "suppress-sound", "resident", "transient"].contains($0.0) }
                                + [("suppress-sound", .bool(true)), ("transient", .bool(true))],
                            timeout: 1)
    }
}
