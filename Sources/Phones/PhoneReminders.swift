import DBusKit
import SystemdKit
import DesktopWatch
import ReminderCore

/// A tap on the person's phone, once a break: the phones KDE Connect and
/// GSConnect link to this desktop, and one ping to each with each reminder
/// the desktop shows, while `PhoneReminders` is on. Fed the engine's status
/// after every change, like the notifier, so whatever holds the desktop's
/// reminder back (a pause, do-not-disturb, a call, the hours) holds the
/// phone's too.
///
/// Never a buzz a second (docs/phones.md): a phone that is sent the desktop's
/// notifications gets the reminder that way and no ping. Its program sends
/// every later update as well, each one alerting the phone, so while such a
/// phone is linked the desktop's bubble says nothing after the reminder
/// (`quietAfterReminder`); KDE Connect 26.08 and later leave notifications
/// with the hint `x-kdeconnect-source-device` on the desktop
/// (`hintAfterReminder`), so there the countdown stays.
public final class PhoneReminders {
    private let log: Log
    private let sources: [PhoneSource]
    /// Runs when `phones` changed.
    public var onChange: (() -> Void)?
    /// The reminder last tapped for (its `NextBreak`), so a reminder taps once however often the state is fed.
    private var tapped: Timestamp = 0

    /// `dconf`: the shared dconf database, where GSConnect keeps its devices' settings (nil: its defaults);
    /// `programs`: KDE Connect and GSConnect as followed on the bus, shared with the phone remote.
    public init(connection: Connection, log: Log, dconf: DconfDatabase?, programs: PhonePrograms) {
        self.log = log
        let problems = ProblemLog(log: log, feature: "Phones", usualConsequence: "no phones from it")
        sources = [KDEConnectPhones(connection: connection, problems: problems, program: programs.kdeConnect),
                   GSConnectPhones(connection: connection, problems: problems, dconf: dconf, program: programs.gsConnect)]
    }

    /// The paired, reachable phones iCare can remind, KDE Connect's first.
    public var phones: [Phone] { sources.flatMap(\.phones) }

    /// Some linked phone is sent every notification (each update alerting it): after the reminder,
    /// the desktop's bubble must stay quiet; the ring, the app and the extension count the break.
    public var quietAfterReminder: Bool { phones.contains { $0.forwarding == .everything } }

    /// Some linked phone's program leaves hinted notifications on the desktop: what follows the
    /// reminder carries the hint.
    public var hintAfterReminder: Bool { phones.contains { $0.forwarding == .unlessHinted } }

    public func start() {
        for source in sources {
            source.onChange = { [unowned self] in
                let labels = self.phones.map(\.label)
                self.log.info(labels.isEmpty ? "Phones: none linked." : "Phones: \(labels.joined(separator: ", ")).")
                self.onChange?()
            }
            source.start()
        }
    }

    /// Taps each phone once for a reminder the desktop shows now; `message` is the ping's text for a phone.
    public func update(status: ReminderStatus, settings: Settings, message: (Phone) -> String) {
        guard status.state == .due, !status.reminderHeld else { return }
        guard status.nextBreak != tapped else { return }
        tapped = status.nextBreak
        guard settings.phoneReminders else { return }
        for source in sources {
            for phone in source.phones where phone.forwarding == .off {
                source.ping(phone, message: message(phone))
                log.debug("Phones: pinged \(phone.label).")
            }
        }
    }
}
