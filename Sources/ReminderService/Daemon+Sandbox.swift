import Glibc
import DBusKit
import DesktopWatch
import DoNotDisturb
import ICareFiles
import Localization
import Presence

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

    /// Adds or removes one limit, keeping the documented order.
    func setSandboxLimit(_ limit: String, _ applies: Bool) {
        guard sandboxLimits.contains(limit) != applies else { return }
        if applies, saidSandboxLimits.insert(limit).inserted { log.notice(Self.sandboxLogLine(limit)) }
        announcingChanges {
            let now = Set(sandboxLimits).symmetricDifference([limit])
            sandboxLimits = Self.sandboxLimitOrder.filter(now.contains)
        }
        refreshCapabilities()
    }

    static let sandboxLimitOrder = ["gnome-keys", "sleep", "lock", "phone-commands", "phone-commands-restart", "autostart"]

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
