import DBusKit
import DesktopBreaks
import DesktopWatch

/// GNOME's own eyesight breaks: shown as `DesktopEyeBreaks`, said once in the log by the watcher;
/// a GNOME break taken (ScreenTime) is a rest for the engine.
extension Daemon {
    func followDesktopEyeBreaks(_ dconf: DconfDatabase, _ bus: Connection) {
        let eyes = DesktopEyeBreaks(log: log)
        parts.eyeBreaks = eyes
        eyes.onChange = { [unowned self] on in
            self.facts.desktopEyeBreaks = on
            self.report()
        }
        // In the Flatpak sandbox dconf is out of reach; iCare's Shell extension passes the key on.
        if Sandbox.isFlatpak { eyes.follow(shell: bus) } else { eyes.follow(dconf) }
    }

    /// Only where the session may be GNOME's (the watch itself follows GNOME Shell's name).
    func followScreenTime(_ bus: Connection, _ desktops: SessionDesktops) {
        guard desktops.isCandidate(.gnome) else { return }
        let watch = ScreenTimeWatch(connection: bus, log: log)
        parts.screenTime = watch
        watch.onBreakTaken = { [unowned self] seconds in self.report(.desktopBreak(seconds: seconds)) }
        watch.start()
    }
}
