import Glibc
import DBusKit
import DesktopWatch
import DoNotDisturb
import ICareFiles
import Localization
import Presence
import DesktopReport

/// What cannot work now in the sandbox icared runs in, as `SandboxLimits`: the
/// Flatpak's (docs/flatpak.md, "What works inside, and what does not") or its
/// systemd unit's (docs/as-installed.md). Each limit is said once in the log
/// when it first applies; the property follows changes (iCare's Shell
/// extension appearing, the answer the app's welcome got from the Background portal, told over the bus, KDE Connect's folder).
extension Daemon {
    func startSandboxLimits(_ bus: Connection, _ dnd: DndMonitor, _ desktops: SessionDesktops) {
        guard Sandbox.isFlatpak else { return }
        readLoginAnswer()
        // logind is on the system bus, which the sandbox does not get.
        setSandboxLimit("sleep", true)
        // KDE Connect's and GSConnect's command lists are outside it (PhoneRemote writes none there).
        setSandboxLimit("phone-commands", true)
        if desktops.isCandidate(.gnome) {
            setSandboxLimit("gnome-keys", true)
            dnd.onShellServing = { [unowned self] serving in self.setSandboxLimit("gnome-keys", !serving) }
        }
    }

    /// A locked screen, without logind: through the Inhibit portal or a screen saver (PresenceMonitor).
    func followLockInSandbox(_ presence: PresenceMonitor) {
        presence.onLockSeen = { [unowned self] seen in self.setSandboxLimit("lock", !seen) }
    }

    /// The sandbox icared runs in and how it is started at login, as far as it can tell at start
    /// (`Capabilities`' sandbox and login): its systemd unit, the Flatpak (the app's word comes
    /// later: `loginAnswered`), or the package's autostart entry where the desktop reads them.
    static func howStarted(configHome: String) -> (DesktopFacts.Sandbox, DesktopFacts.Login) {
        if Sandbox.isFlatpak { return (.flatpak, .flatpak(allowed: nil)) }
        if Sandbox.isSystemdUnit { return (.systemdUnit, .systemdUnit) }
        let dirs = (getenv("XDG_CONFIG_DIRS").map { String(cString: $0) }).flatMap { $0.isEmpty ? nil : $0 } ?? "/etc/xdg"
        let found = ([configHome] + dirs.split(separator: ":").map(String.init)).contains {
            access($0 + "/autostart/icared-autostart.desktop", R_OK) == 0
        }
        return (.none, found ? .autostartEntry : .nothing)
    }

    /// The app's word on starting at login in the Flatpak (nil: not asked yet): what `Capabilities`
    /// says of the login, and the `autostart` limit.
    func loginAnswered(_ allowed: Bool?) {
        facts.desktop.login = .flatpak(allowed: allowed)
        recordSandboxLimit("autostart", allowed != true)
        report()
    }

    /// A limit that applies or no longer does: the fact, then the pass.
    func setSandboxLimit(_ limit: String, _ applies: Bool) {
        if recordSandboxLimit(limit, applies) { report() }
    }

    /// Adds or removes one limit; each is said once in the log, when it first applies. Whether it changed.
    @discardableResult
    private func recordSandboxLimit(_ limit: String, _ applies: Bool) -> Bool {
        guard facts.sandboxLimits.contains(limit) != applies else { return false }
        if applies, facts.sandboxLimitsSeen.insert(limit).inserted { log.notice(Self.sandboxLogLine(limit)) }
        if applies { facts.sandboxLimits.insert(limit) } else { facts.sandboxLimits.remove(limit) }
        return true
    }

    static func sandboxLogLine(_ limit: String) -> String {
        let why: String
        switch limit {
        case "gnome-keys": why = "GNOME's do-not-disturb and eyesight breaks are in dconf, out of reach; iCare's Shell extension passes them on once it runs"
        case "sleep": why = "logind is on the system bus, which the sandbox does not get: a suspend is not seen"
        case "lock": why = "neither the Inhibit portal's monitor nor a screen saver is on the bus: a locked screen is not seen"
        case "phone-commands": why = "KDE Connect's and GSConnect's command lists are out of reach: phones get pings only"
        case "autostart": why = "the Background portal has not allowed starting at login (the app's welcome asks it)"
        case "phone-commands-restart":
            return "Under its unit: KDE Connect's folder was made after icared started, so it stays read-only until icared "
                + "starts again (systemctl --user restart icared); phones get pings only (SandboxLimits \(limit); logged once)."
        default: why = limit
        }
        return "In the Flatpak sandbox: \(why) (SandboxLimits \(limit); logged once)."
    }
}
