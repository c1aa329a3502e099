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
/// extension appearing, the answer the app's welcome got from the Background portal, KDE Connect's folder).
extension Daemon {
    func startSandboxLimits(_ bus: Connection, _ dnd: DndMonitor, _ desktops: SessionDesktops) {
        guard Sandbox.isFlatpak else { return }
        followLoginAnswer()
        // logind is on the system bus, which the sandbox does not get.
        setSandboxLimit("sleep", true)
        // KDE Connect's and GSConnect's command lists are outside it (PhoneRemote writes none there).
        setSandboxLimit("phone-commands", true)
        if desktops.isCandidate(.gnome) {
            setSandboxLimit("gnome-keys", true)
            dnd.onShellServing = { [unowned self] serving in self.setSandboxLimit("gnome-keys", !serving) }
        }
    }

    /// Starting at login: the app's welcome asks the Background portal (a Flatpak's icared has no window
    /// to ask from, and a dialog at each start would be noise) and keeps the answer in `starts-at-login`
    /// (ICareFiles' LoginAnswer). icared reads it now and follows the file through inotify on its state
    /// folder, which only changes when the app writes it or a break is recorded.
    func followLoginAnswer() {
        let answer = LoginAnswer(paths: paths)
        let read = { [unowned self] in
            let allowed = answer.read()
            self.startsAtLogin = allowed
            self.setSandboxLimit("autostart", allowed != true)
            self.refreshCapabilities()
        }
        read()
        do {
            sources.append(try loop.addInotify(path: paths.stateDirectory,
                                               mask: UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO) | UInt32(IN_DELETE)) { _, name in
                if name == LoginAnswer.fileName { read() }
            })
        } catch {
            log.warning("Cannot watch \(paths.stateDirectory) for the welcome's answer on starting at login (\(error)); it is read at the next start.")
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
