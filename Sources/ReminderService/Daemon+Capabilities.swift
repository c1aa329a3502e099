import Glibc
import DesktopWatch
import DesktopReport
import StatusItem

/// `Capabilities`: what icared can see on this desktop, gathered from the
/// parts that watch it (docs/interface.md). The value is kept, and announced
/// with `PropertiesChanged` when its words change: after every change of
/// state and whenever the notification server, do-not-disturb, the ring's
/// place, the phones, the sounds or the sandbox limits change.
extension Daemon {
    var desktopFacts: DesktopFacts {
        var facts = DesktopFacts()
        if let notifier, notifier.ownerKnown {
            if notifier.owner == nil {
                facts.server = .none
            } else if let profile = notifier.profile {
                facts.server = .found(name: profile.displayName, version: profile.serverVersion, actions: profile.actions)
            }
        }
        facts.doNotDisturb = dnd?.providersFound ?? []
        facts.doNotDisturbSettled = dnd?.settled ?? false
        facts.timeAway = presence?.sourcesFound.filter { !$0.hasPrefix("logind session ") } ?? []
        facts.busy = busyMonitor?.sourcesFound ?? []
        switch statusItem?.place {
        case .shellExtension: facts.ring = .shellExtension
        case .tray: facts.ring = .tray
        case .off: facts.ring = .off
        case .nowhere, nil: facts.ring = .nowhere
        }
        facts.sound = engine.settings.sound
        facts.soundPlayedBy = soundPlayedBy
        facts.phoneReminders = engine.settings.phoneReminders
        facts.phones = phoneLabels
        facts.sandboxLimits = sandboxLimits
        if Sandbox.isFlatpak {
            facts.sandbox = .flatpak
            facts.login = .flatpak(allowed: startsAtLogin)
        } else if Sandbox.isSystemdUnit {
            facts.sandbox = .systemdUnit
            facts.login = .systemdUnit
        } else {
            facts.login = Self.autostartEntryExists(configHome: paths.configHome) ? .autostartEntry : .nothing
        }
        return facts
    }

    /// Announces `Capabilities` when its words changed.
    func refreshCapabilities() {
        let now = desktopFacts.capabilities
        guard now != capabilities else { return }
        announcingChanges { capabilities = now }
        statusItem?.extras.cannotSee = now.contains { $0.state == .missing }
    }

    /// The package's (or `make install`'s) autostart entry, where the desktop reads them.
    static func autostartEntryExists(configHome: String) -> Bool {
        let dirs = (getenv("XDG_CONFIG_DIRS").map { String(cString: $0) }).flatMap { $0.isEmpty ? nil : $0 } ?? "/etc/xdg"
        return ([configHome] + dirs.split(separator: ":").map(String.init)).contains {
            access($0 + "/autostart/icared-autostart.desktop", R_OK) == 0
        }
    }
}
