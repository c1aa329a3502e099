import Localization
import DBusKit
import ReminderCore
import Busy
import DesktopReport

/// The `org.icare.Reminder` interface, described once: dispatch, argument
/// checks, properties, PropertiesChanged and the introspection XML (the
/// checked-in `dbus/org.icare.Reminder.xml`) all come from this table.
enum ReminderInterface {
    static let name = InterfaceName("org.icare.Reminder")
    static let busName = BusName("org.icare.Reminder")
    static let path = ObjectPath("/org/icare/Reminder")
    static let invalidState = "org.icare.Reminder.Error.InvalidState"

    static let keptElsewhere = "org.icare.Reminder.Error.KeptElsewhere"

    /// What the methods need: the keeper (`Daemon`) carries a call out, an
    /// icared that defers (`Standby`) refuses it; both read the history.
    protocol Calls: AnyObject {
        /// Carries out a client's call and returns the status after it: the reply
        /// fails when the work it reports did not happen (a refusal, a record that
        /// could not be saved).
        func call(_ event: ReminderEvent) throws(DBusError) -> ReminderStatus
        func history(from: Timestamp, to: Timestamp) -> [BreakRecord]
        /// The settings as in force (the keeper) or as the config file says (an icared that defers).
        var settings: Settings { get }
        func changeSetting(_ key: SettingKey, to value: SettingValue) throws(DBusError)
        /// The Flatpak app's word that the desktop allows (or not) starting icared at login.
        func setStartsAtLogin(_ allowed: Bool) throws(DBusError)
    }

    /// What the whole interface needs from the service behind it: the one value it announces
    /// (ReminderInterface+Properties reads its properties from it).
    protocol Backend: Calls {
        var announced: Announced { get }
        var timeScaleFactor: UInt32 { get }
    }

    static func describe(_ backend: Backend, version: String) -> Interface {
        Interface(name.rawValue, doc: """
            iCare's eye-break reminder (interface version 1). Every 20 minutes, look at
            something 20 feet (6 m) away for 20 seconds: the rule relieves eye strain while
            it is practised. Times (t) are microseconds since the Unix epoch, 0 meaning none;
            durations (u) are seconds. Clients count down from NextBreak and BreakEnds
            themselves: there is no per-second signal. Errors: InvalidArgs for a wrong
            signature or an out-of-range value, org.icare.Reminder.Error.InvalidState when a
            call makes no sense in the current State; each message is one plain sentence.
            """,
            methods: methods(backend),
            properties: properties(backend, version: version),
            signals: signals)
    }

    /// The interface of an icared that defers to another (`Standby`): the same
    /// methods and settings, refused, and of the rest only `Version` and `KeptBy`.
    static func describeStandby(_ calls: any Calls, keptBy: @escaping () -> String, version: String) -> Interface {
        Interface(name.rawValue, doc: "iCare's eye-break reminder, kept by another icared (see KeptBy).",
                  methods: methods(calls),
                  properties: [versionProperty(version), keptByProperty(keptBy)] + settingProperties(calls))
    }

    // MARK: methods

    static func methods(_ b: any Calls) -> [Method] {
        [
            Method("StartBreak", doc: """
                Starts the break countdown now, from any state but break (also early, paused or
                inactive: the person asked for it; a pause stays in force afterwards).
                Error: InvalidState in break.
                """) { _ throws(DBusError) in
                try run(b, .startBreak)
                return []
            },
            Method("Snooze", in: [Argument("seconds", "u")], out: [Argument("until", "t")], doc: """
                Postpones the due or next reminder to now + seconds (0 = SnoozeDuration) and sets
                State to snoozed; from break it ends the countdown first, with no record.
                Errors: InvalidArgs outside 60-3600; InvalidState when paused or inactive.
                """) { call throws(DBusError) in
                let after = try b.call(.snooze(seconds: call.arguments[0].uint32!))
                return [.uint64(UInt64(max(0, after.nextBreak)))]
            },
            Method("Skip", doc: """
                Skips the due, snoozed, running or upcoming break: a skipped record, and the next
                reminder a full Interval from now. Error: InvalidState when paused or inactive.
                """) { _ throws(DBusError) in
                try run(b, .skip)
                return []
            },
            Method("Pause", in: [Argument("seconds", "u")], out: [Argument("until", "t")], doc: """
                Pauses reminders for seconds (0 = until Resume), at most 86400. A second Pause
                replaces the first. Returns PausedUntil (0 for an open pause). A running break
                ends with no record. Error: InvalidArgs above 86400.
                """) { call throws(DBusError) in
                let after = try b.call(.pause(seconds: call.arguments[0].uint32!))
                return [.uint64(UInt64(max(0, after.pausedUntil)))]
            },
            Method("Resume", doc: """
                Ends a user pause; a full Interval starts now. Resuming when not paused by the
                user is a no-op, not an error.
                """) { _ throws(DBusError) in
                try run(b, .resume)
                return []
            },
            Method("GetHistory", in: [Argument("from", "t"), Argument("to", "t")], out: [Argument("records", "a(tsu)")], doc: """
                The break records with from <= at < to, oldest first: (when it ended, outcome,
                seconds rested). Outcomes: completed, skipped, missed (since 0.6; skipped before), natural; clients must accept
                unknown strings. Error: InvalidArgs when from > to.
                """) { call throws(DBusError) in
                let from = call.arguments[0].uint64!, to = call.arguments[1].uint64!
                guard from <= to else { throw DBusError.invalidArgs(tr("GetHistory needs from <= to.")) }
                let clamp = { (v: UInt64) in Timestamp(min(v, UInt64(Int64.max))) }
                let records = b.history(from: clamp(from), to: clamp(to))
                return [.array(element: "(tsu)", records.map {
                    .structure([.uint64(UInt64(max(0, $0.at))), .string($0.outcome.rawValue), .uint32($0.seconds)])
                })]
            },
            Method("SetStartsAtLogin", in: [Argument("allowed", "b")], doc: """
                In the Flatpak: the Background portal's answer when the app's welcome asked it to start
                iCare at login (true: allowed). icared keeps it in its state folder before the reply and
                follows it in SandboxLimits (autostart) and Capabilities (login). Error:
                org.freedesktop.DBus.Error.NotSupported outside the Flatpak, where systemd's unit or the
                autostart entry starts icared (since 0.8).
                """) { call throws(DBusError) in
                try b.setStartsAtLogin(call.arguments[0].bool!)
                return []
            },
        ]
    }

    private static func run(_ b: any Calls, _ event: ReminderEvent) throws(DBusError) {
        _ = try b.call(event)
    }

    /// The D-Bus error for an engine refusal.
    static func error(for refusal: ReminderError) -> DBusError {
        switch refusal {
        case .invalidState(let m): return DBusError(name: invalidState, message: m)
        case .invalidArgs(let m): return DBusError.invalidArgs(m)
        }
    }

    static func settingProperties(_ b: any Calls) -> [Property] {
        SettingKey.allCases.map { key in
            Property(key.name, Signature(rawValue: key.signature)!, doc: settingDoc(key),
                     read: { settingValue(b.settings.value(of: key)) },
                     write: { v throws(DBusError) in
                         guard let value = settingValue(v) else {
                             throw DBusError.invalidArgs(tr("%s takes a value of type '%s'.", key.name, key.signature))
                         }
                         try b.changeSetting(key, to: value)
                     })
        }
    }

    static func versionProperty(_ version: String) -> Property {
        Property("Version", "s", doc: "The service's version.", emitsChange: .const, read: { .string(version) })
    }

    static func keptByProperty(_ read: @escaping () -> String) -> Property {
        Property("KeptBy", "s", doc: """
            "" from the icared that keeps the person's schedule and history. From an icared that
            found another one keeping them (the same config and state folders, another bus: a
            second login without a systemd user session), which one, in words ("icared (process
            4242) on desk, login session 3"); that icared serves only Version, KeptBy, the
            settings as the config file says and the methods; each call and each setting set fails
            with org.icare.Reminder.Error.KeptElsewhere (GetHistory reads the history), and it
            becomes the keeper when the other one stops (since 0.7).
            """, read: { .string(read()) })
    }

    static func settingDoc(_ key: SettingKey) -> String {
        let defaults = Settings()
        let head = "Setting (read-write; saved to the config file before the reply). \(key.allowedInEnglish)"
        switch key {
        case .activeHours:
            return head + " Local time; an end before the start spans midnight. Default \"\"."
        case .dndPolicy:
            return head + " pause: no reminders during do-not-disturb, a full Interval after it ends; defer: keep counting and show a reminder that fell due when it ends; ignore. Default pause."
        case .busyPolicy:
            return head + " In a call, a screen share or a video (see Busy): defer: keep counting and show a reminder that fell due two minutes (scaled like Interval) after it ends; pause: no reminders while busy, a full Interval after it ends; ignore. Time while busy never counts as a natural break. Default defer."
        case .phoneReminders:
            return head + " true: each reminder also taps each phone in Phones once (a KDE Connect ping, or GSConnect's), never for the countdown or the end of a break, and never while the reminder itself is held back. Default false."
        case .fullScreenReminders:
            return head + " true: a full-screen window holds no reminder back (see Busy), and a reminder or countdown sent while GNOME Shell hides all but urgent notifications over one goes out with critical urgency so it is seen, as does every reminder and countdown on Plasma (which draws a normal one under a focused full-screen window without saying so); it is taken away as any other. false: the full-screen window counts as busy (BusyPolicy). Default false."
        case .statusItem:
            return head + " true: a ring counting down to the next break, with a menu, in panels that show StatusNotifierItems (registered with org.kde.StatusNotifierWatcher while one runs); false: none. Default true."
        default:
            return head + " Default \(defaults.value(of: key))."
        }
    }

    static func settingValue(_ v: SettingValue) -> DBusValue {
        switch v {
        case .uint(let u): return .uint32(u)
        case .string(let s): return .string(s)
        case .bool(let b): return .bool(b)
        }
    }

    static func settingValue(_ v: DBusValue) -> SettingValue? {
        switch v {
        case .uint32(let u): return .uint(u)
        case .string(let s): return .string(s)
        case .bool(let b): return .bool(b)
        default: return nil
        }
    }

    // MARK: signals

    static let signals: [SignalDescription] = [
        SignalDescription("BreakDue", [Argument("at", "t")], doc: "A reminder goes out (also when no notification server runs)."),
        SignalDescription("BreakStarted", [Argument("ends", "t")], doc: "A break countdown starts; it ends at ends."),
        SignalDescription("BreakCompleted", [Argument("at", "t")], doc: "A countdown ran to its end."),
        SignalDescription("BreakSkipped", [Argument("at", "t")], doc: "A break was skipped (Skip)."),
        SignalDescription("BreakMissed", [Argument("at", "t")], doc: "A reminder was left unanswered for a whole Interval: a missed record."),
        SignalDescription("BreakSnoozed", [Argument("until", "t")], doc: "A reminder was snoozed until until."),
    ]
}
