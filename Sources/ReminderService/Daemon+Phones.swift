import DBusKit
import DesktopWatch
import Phones
import PhoneRemote

/// The phones KDE Connect and GSConnect link (the `Phones` target): listed in
/// `Phones`, tapped once with each reminder while `PhoneReminders` is on, and
/// the notifier kept from sending a phone that mirrors the desktop a buzz a
/// second (docs/phones.md); and the phones as a remote (the `PhoneRemote`
/// target): iCare's commands in their Run command lists.
extension Daemon {
    func startPhones(_ bus: Connection) {
        // Each program followed once, for the reminders and the remote alike.
        let programs = PhonePrograms(connection: bus)
        let phones = PhoneReminders(connection: bus, log: log, dconf: parts.dnd?.dconf, programs: programs)
        parts.phones = phones
        let heard = { [unowned self, unowned phones] in
            self.facts.phones = phones.phones.map(\.label)
            self.facts.notificationPhones = NotificationPhones(quietAfterReminder: phones.quietAfterReminder,
                                                               hintAfterReminder: phones.hintAfterReminder)
        }
        phones.onChange = { [unowned self] in
            heard()
            self.report()
        }
        // Both follow the status from Daemon+Followers, before the notifier.
        heard()
        phones.start()
        let remote = PhoneRemote(connection: bus, loop: loop, log: log, configHome: paths.configHome, dconf: parts.dnd?.dconf,
                                 icarectl: PhoneRemote.icarectlBesideService(), names: Texts.phoneCommandNames, programs: programs)
        parts.phoneRemote = remote
        // Under the unit, a KDE Connect folder made after icared started stays read-only until it starts again.
        remote.onChange = { [unowned self, unowned remote] in
            self.setSandboxLimit("phone-commands-restart", Sandbox.isSystemdUnit && remote.kdeConnectFolderReadOnly)
        }
        remote.start()
        remote.update(status: engine.status, settings: engine.settings)
    }
}

/// What the linked phones ask of the desktop's notifications after a reminder.
struct NotificationPhones: Equatable {
    /// Send nothing after the reminder: a phone gets every update, each one alerting it.
    var quietAfterReminder = false
    /// Put `x-kdeconnect-source-device` on what follows the reminder: a phone's program keeps those on the desktop.
    var hintAfterReminder = false
}
