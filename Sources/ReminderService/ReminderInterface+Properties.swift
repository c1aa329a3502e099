import DBusKit
import ReminderCore
import DesktopReport

/// The properties of `org.icare.Reminder`: those that change read the one value icared announces
/// (`Announced`), and the same table says which of them differ between two such values, so that
/// one change is one `PropertiesChanged` naming exactly what changed.
extension ReminderInterface {
    /// A property read from `Announced`.
    struct Shown: Sendable {
        let name: String
        let signature: Signature
        let doc: String
        let value: @Sendable (Announced) -> DBusValue

        init(_ name: String, _ signature: Signature, doc: String, value: @escaping @Sendable (Announced) -> DBusValue) {
            self.name = name
            self.signature = signature
            self.doc = doc
            self.value = value
        }
    }

    /// The properties that change, in the interface's order, after the settings' own (`settingProperties`).
    static func changes(from old: Announced, to new: Announced) -> [String] {
        shown.filter { $0.value(old) != $0.value(new) }.map(\.name)
            + SettingKey.allCases.filter { old.settings.value(of: $0) != new.settings.value(of: $0) }.map(\.name)
    }

    static func properties(_ b: Backend, version: String) -> [Property] {
        shown.map { p in Property(p.name, p.signature, doc: p.doc, read: { p.value(b.announced) }) } + [
            versionProperty(version),
            keptByProperty({ "" }),
            Property("TimeScale", "u", doc: """
                1, or N when the service runs with --time-scale N (a demo and test aid): Interval,
                SnoozeDuration and timed pauses then pass N times faster; breaks, time away and
                ActiveHours stay in real time, and every time property is still a real instant.
                """, emitsChange: .const, read: { .uint32(b.timeScaleFactor) }),
        ] + settingProperties(b)
    }

    private static func time(_ t: Timestamp) -> DBusValue { .uint64(UInt64(max(0, t))) }

    static let shown: [Shown] = [
        Shown("State", "s", doc: "waiting, due, break, snoozed, paused or inactive.",
              value: { a in .string(a.status.state.rawValue) }),
        Shown("PauseReason", "s", doc: """
            "" unless State is paused; then user, dnd, locked or busy: the cause that began most
            recently. Reminders resume only when no cause holds.
            """, value: { a in .string(a.status.pauseReason.rawValue) }),
        Shown("NextBreak", "t", doc: """
            When the next reminder fires. In due: when the reminder went out; in break:
            BreakEnds + Interval; in paused: PausedUntil + Interval for a timed user pause,
            else 0; in inactive: the first reminder of the next active period.
            """, value: { a in time(a.status.nextBreak) }),
        Shown("BreakEnds", "t", doc: "In break, when the countdown ends; else 0.",
              value: { a in time(a.status.breakEnds) }),
        Shown("PausedUntil", "t", doc: "The end of a timed user pause; else 0.",
              value: { a in time(a.status.pausedUntil) }),
        Shown("CompletedToday", "u", doc: "completed + natural records since local midnight.",
              value: { a in .uint32(a.status.completedToday) }),
        Shown("SkippedToday", "u", doc: "skipped records (Skip pressed or called) since local midnight.",
              value: { a in .uint32(a.status.skippedToday) }),
        Shown("MissedToday", "u", doc: "missed records (reminders left unanswered for a whole Interval) since local midnight.",
              value: { a in .uint32(a.status.missedToday) }),
        Shown("DoNotDisturb", "b", doc: "The desktop's do-not-disturb, as observed.",
              value: { a in .bool(a.status.doNotDisturb) }),
        Shown("DoNotDisturbSource", "s", doc: """
            Which desktop reported do-not-disturb (gnome, cinnamon, mate, kde, xfce, dunst,
            swaync, mako), the one that turned on most recently, or "".
            """, value: { a in .string(a.doNotDisturbSource) }),
        Shown("Busy", "b", doc: """
            A call, a screen share or a video is going on: a camera, a microphone recording
            or a screen cast running in PipeWire, or an app holding off the desktop's screen
            saver; or a full-screen window hides reminders (GNOME Shell, through iCare's
            extension) and FullScreenReminders is false. What it does follows BusyPolicy.
            """, value: { a in .bool(a.busy.active) }),
        Shown("BusySource", "s", doc: """
            What makes the person busy: camera, microphone or screen-share (PipeWire),
            video (a screen-saver inhibitor) or full-screen (in that order when several
            are); "" when not busy.
            """, value: { a in .string(a.busy.source) }),
        Shown("BusyReason", "s", doc: """
            Who: the application using the camera, microphone or screen cast, as PipeWire
            names it, or the inhibitor's "app id: reason" (for example
            "org.mozilla.firefox: Playing video"), or which desktop hides reminders over a
            full-screen window; "" when not busy or not said.
            """, value: { a in .string(a.busy.reason) }),
        Shown("DesktopEyeBreaks", "b", doc: """
            GNOME's own eyesight break reminders are on too (org.gnome.desktop.break-reminders
            selected-breaks has eyesight): two reminders for one break. Keep one of the two.
            """, value: { a in .bool(a.desktopEyeBreaks) }),
        Shown("SoundPlayedBy", "s", doc: """
            Who plays the sounds of a reminder and of a break's end: notification-server (it
            lists the sound capability and plays the sound-name hint, as GNOME Shell does),
            icared (through libcanberra and the desktop's sound server, with the event role),
            or none (Sound is off, or the desktop's event sounds are off). Never in
            do-not-disturb or while Busy.
            """, value: { a in .string(a.soundPlayedBy) }),
        Shown("Phones", "as", doc: """
            The phones iCare can remind, paired with this desktop through KDE Connect or GSConnect
            and reachable now, as "name (KDE Connect)" or "name (GSConnect)"; [] when none. With
            PhoneReminders on, each reminder taps each of them once (a ping), except a phone that
            is sent the desktop's notifications: it gets the reminder that way.
            """, value: { a in .array(element: "s", a.phones.map { .string($0) }) }),
        Shown("ConfigProblems", "as", doc: """
            The lines of the config file that could not be used, one sentence each as
            "file:line: error: ..." (or warning, for text that changes nothing); [] when the
            file is fine. A key with an error keeps its previous value. Follows every edit.
            """, value: { a in .array(element: "s", a.configProblems.map { .string($0) }) }),
        Shown("Capabilities", "a(sss)", doc: """
            What iCare can see on this desktop now: (name, state, words) for each of
            reminder-buttons, do-not-disturb, time-away, calls, ring, sounds, phones, login and
            sandbox, in that order. state is works, limited, missing or off (turned off, or
            nothing to do); words say why in the service's language. Follows the desktop.
            """, value: { a in .array(element: "(sss)", a.capabilities.map {
                .structure([.string($0.name.rawValue), .string($0.state.rawValue), .string($0.words)])
            }) }),
        Shown("SandboxLimits", "as", doc: """
            What cannot work now in the sandbox icared runs in, one word each. In the
            Flatpak's: gnome-keys (GNOME's do-not-disturb and eyesight breaks: iCare's Shell
            extension is not there to pass them on), sleep (a suspend is not seen: logind is
            outside), lock (no screen lock is seen: the portal's monitor is missing),
            phone-commands (phones get pings only), autostart (iCare does not start at
            login: the Background portal, asked by the app's welcome, has not allowed it).
            Under its systemd unit:
            phone-commands-restart (KDE Connect was set up after icared started, so its folder
            stays read-only until icared starts again). [] when nothing is kept from it.
            """, value: { a in .array(element: "s", a.sandboxLimits.map { .string($0) }) }),
    ]
}
