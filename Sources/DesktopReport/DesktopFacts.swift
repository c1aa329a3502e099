import Localization

/// What icared knows of this desktop now, gathered by the daemon from its
/// watchers (the notifier, do-not-disturb, presence, busy, the status item,
/// sounds, phones, the sandbox); `capabilities` puts it in words.
public struct DesktopFacts: Equatable, Sendable {
    public enum Server: Equatable, Sendable {
        /// Not known yet (the bus has not answered).
        case unknown
        case none
        case found(name: String, version: String, actions: Bool)
    }

    public enum Ring: Equatable, Sendable { case shellExtension, tray, nowhere, off }

    public enum Login: Equatable, Sendable {
        case systemdUnit
        /// The Background portal's answer to the app's welcome (nil: not asked yet).
        case flatpak(allowed: Bool?)
        case autostartEntry
        case nothing
    }

    public enum Sandbox: Equatable, Sendable { case none, flatpak, systemdUnit }

    public var server = Server.unknown
    /// The do-not-disturb providers found (`DoNotDisturbSource`'s names), and whether every watcher has answered.
    public var doNotDisturb: [String] = []
    public var doNotDisturbSettled = false
    /// Where the screen lock, idle time and sleep are read: the presence watcher's names for the log
    /// (`logind`, the screen savers' and GNOME's idle monitor's bus names, `wayland <protocol>`); the
    /// words say only what they see (the names are in the log and docs/desktops.md).
    public var timeAway: [String] = []
    /// Where calls, screen shares and full-screen windows are seen: the busy watcher's names for the log
    /// (`PipeWire`, `GNOME's session manager`, …); the words name the desktops (`busyNames`).
    public var busy: [String] = []
    public var ring = Ring.nowhere
    /// The `Sound` setting, and `SoundPlayedBy`.
    public var sound = true
    public var soundPlayedBy = "icared"
    public var phoneReminders = false
    public var phones: [String] = []
    public var login = Login.nothing
    public var sandbox = Sandbox.none
    /// `SandboxLimits`.
    public var sandboxLimits: [String] = []

    public init() {}

    /// Each capability, in `Capability.Name`'s order.
    public var capabilities: [Capability] {
        [buttons, doNotDisturbWords, timeAwayWords, callsWords, ringWords, soundWords, phoneWords, loginWords, sandboxWords]
    }

    var buttons: Capability {
        switch server {
        case .unknown: return Capability(.buttons, .limited, tr("Still looking for the desktop's notification server."))
        case .none: return Capability(.buttons, .missing, tr("No notification server is running: reminders go to iCare's log only."))
        case .found(let name, let version, true):
            return Capability(.buttons, .works, tr("%s shows Start, Snooze and Skip.", Self.server(name, version)))
        case .found(let name, let version, false):
            return Capability(.buttons, .missing, tr("%s draws no buttons: start a break from the ring or with 'icarectl start'.",
                                                     Self.server(name, version)))
        }
    }

    var doNotDisturbWords: Capability {
        if !doNotDisturb.isEmpty {
            return Capability(.doNotDisturb, .works, tr("Follows the do-not-disturb of %s.", Self.list(doNotDisturb.map(Self.desktopName))))
        }
        return doNotDisturbSettled
            ? Capability(.doNotDisturb, .missing, tr("No do-not-disturb that iCare can read on this desktop."))
            : Capability(.doNotDisturb, .limited, tr("Still looking for the desktop's do-not-disturb."))
    }

    var timeAwayWords: Capability {
        if timeAway.isEmpty {
            return Capability(.timeAway, .missing, tr("iCare cannot see the screen lock or idle time here, so time away does not count as a rest."))
        }
        // Idle comes from logind's idle hint, GNOME's idle monitor or the Wayland compositor; a screen saver
        // alone sees only the lock, and a person who walks away without locking is not seen.
        let seesIdle = timeAway.contains { $0 == "logind" || $0 == "org.gnome.Mutter.IdleMonitor" || $0.hasPrefix("wayland ") }
        return seesIdle
            ? Capability(.timeAway, .works, tr("Sees when you step away or lock the screen: time away counts as a rest."))
            : Capability(.timeAway, .limited, tr("Sees when the screen is locked, but not when you step away without locking it."))
    }

    var callsWords: Capability {
        busy.isEmpty
            ? Capability(.calls, .missing, tr("iCare cannot see calls, screen shares or full-screen windows here."))
            : Capability(.calls, .works, tr("Sees calls, screen shares and full screen through %s.", Self.list(Self.busyNames(busy))))
    }

    var ringWords: Capability {
        switch ring {
        case .shellExtension: return Capability(.ring, .works, tr("In the top bar, drawn by iCare's GNOME Shell extension."))
        case .tray: return Capability(.ring, .works, tr("In the panel's tray."))
        case .nowhere:
            return Capability(.ring, .missing, tr("No tray shows the ring here: it needs a panel's tray (waybar's, a desktop panel's) or, on GNOME, iCare's extension."))
        case .off: return Capability(.ring, .off, tr("Turned off in the settings."))
        }
    }

    var soundWords: Capability {
        guard sound else { return Capability(.sounds, .off, tr("Turned off in the settings.")) }
        switch soundPlayedBy {
        case "notification-server": return Capability(.sounds, .works, tr("Played by the notification server."))
        case "icared": return Capability(.sounds, .works, tr("Played by iCare."))
        default: return Capability(.sounds, .limited, tr("The desktop's event sounds are off."))
        }
    }

    var phoneWords: Capability {
        guard phoneReminders else {
            return Capability(.phones, .off, tr("Off: \"Remind my phone too\" taps each phone paired in KDE Connect or GSConnect."))
        }
        return phones.isEmpty
            ? Capability(.phones, .limited, tr("On, but no phone is paired in KDE Connect or GSConnect."))
            : Capability(.phones, .works, tr("Reminds %s.", Self.list(phones)))
    }

    var loginWords: Capability {
        switch login {
        case .systemdUnit: return Capability(.login, .works, tr("Started by systemd, as icared.service."))
        case .flatpak(let allowed):
            // (Spelt out: Debian 13's Swift 6.0 does not see .flatpak(true), (false) and (nil) as all cases.)
            guard let allowed else {
                return Capability(.login, .limited, tr("Not asked yet: iCare's welcome asks the desktop to start it at login."))
            }
            return allowed ? Capability(.login, .works, tr("The desktop allows iCare to start at login."))
                : Capability(.login, .missing, tr("The desktop did not allow iCare to start at login."))
        case .autostartEntry: return Capability(.login, .works, tr("Started at login by its autostart entry."))
        case .nothing: return Capability(.login, .limited, tr("Nothing starts iCare at login here."))
        }
    }

    var sandboxWords: Capability {
        let place: String
        switch sandbox {
        case .none: return Capability(.sandbox, .off, tr("Not in a sandbox."))
        case .flatpak: place = tr("Inside the Flatpak's sandbox")
        case .systemdUnit: place = tr("Inside its systemd unit's sandbox")
        }
        return sandboxLimits.isEmpty
            ? Capability(.sandbox, .works, tr("%s; nothing iCare needs is held back.", place))
            : Capability(.sandbox, .limited, tr("%s; not everything can work there.", place))
    }

    static func server(_ name: String, _ version: String) -> String {
        let name = name.isEmpty ? tr("The notification server") : name
        return version.isEmpty ? name : "\(name) \(version)"
    }

    /// `DoNotDisturbSource`'s names as a person knows the desktops.
    static func desktopName(_ source: String) -> String {
        switch source {
        case "gnome": return "GNOME"
        case "cinnamon": return "Cinnamon"
        case "mate": return "MATE"
        case "kde": return "Plasma"
        case "xfce": return "Xfce"
        case "swaync": return "SwayNotificationCenter"
        default: return source
        }
    }

    /// The busy watcher's names (`InhibitorSource.name`, English, for the log) as a person knows the desktops:
    /// GNOME's session manager and iCare's Shell extension are GNOME, PowerDevil is Plasma, each named once.
    static func busyNames(_ sources: [String]) -> [String] {
        var names: [String] = []
        for source in sources {
            let name: String
            switch source {
            case "GNOME's session manager", "iCare's GNOME Shell extension": name = "GNOME"
            case "Plasma's PowerDevil": name = "Plasma"
            default: name = source
            }
            if !names.contains(name) { names.append(name) }
        }
        return names
    }

    static func list(_ items: [String]) -> String { items.joined(separator: ", ") }
}
