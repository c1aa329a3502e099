import DesktopBreaks
import DoNotDisturb

/// GNOME's own eyesight breaks: shown as `DesktopEyeBreaks`, said once in the log by the watcher.
extension Daemon {
    func followDesktopEyeBreaks(_ dnd: DndMonitor) {
        let eyes = DesktopEyeBreaks(log: log)
        eyeBreaks = eyes
        eyes.onChange = { [unowned self] on in
            self.announcingChanges { self.desktopEyeBreaks = on }
        }
        eyes.follow(dnd)
    }
}
