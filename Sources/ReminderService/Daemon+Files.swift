import Glibc
import SystemdKit
import ReminderCore
import ICareFiles

/// The daemon's files: the saved schedule, the daily history trim, and the
/// config file followed through inotify (with a grace period for editors
/// that move the old file away before writing the new one).
extension Daemon {
    func saveSnapshot() {
        let text = engine.snapshot.encoded()
        guard text != files.lastSavedSnapshot else { return }
        do {
            try files.stateFile.write(text)
            files.lastSavedSnapshot = text
        } catch {
            log.error("Could not save the schedule state: \(error)")
        }
    }

    /// How long a vanished config file may stay away before its absence means the defaults.
    static let configGracePeriod: UInt64 = 500_000

    /// Removes history older than `HistoryStore.retention` on the first timer
    /// wake-up of each local day of a run (local midnight, or the first
    /// reminder after start-up); it rides on wake-ups the schedule needs anyway.
    func trimHistoryOnNewDay() {
        let now = Daemon.wallNow()
        let day = Daemon.localDay(now, calendar)
        guard day != files.historyTrimDay else { return }
        files.historyTrimDay = day
        do {
            let removed = try files.history.trimExpired(now: now)
            if removed > 0 { log.info("Removed \(removed) day file(s) of history older than the retention of 365 days.") }
        } catch {
            log.warning("Could not remove old history: \(error)")
        }
    }

    func reloadConfig() {
        // Moved away or deleted: the defaults apply only if no new file follows
        // within the grace period (vim and emacs move the old file before writing).
        if access(files.config.path, F_OK) != 0, errno == ENOENT, awaitConfigFile() { return }
        files.configGrace?.setEnabled(.off)
        files.configGraceArmed = false
        loadConfig()
    }

    /// Starts (once) the grace period for a vanished config file; false if no timer could be made.
    func awaitConfigFile() -> Bool {
        if files.configGrace == nil {
            files.configGrace = try? loop.addTimer(clock: .monotonic, at: 0, accuracy: 50_000) { [unowned self] in
                self.files.configGraceArmed = false
                self.loadConfig()
            }
            files.configGrace?.setEnabled(.off)
        }
        guard let grace = files.configGrace else { return false }
        if !files.configGraceArmed {
            grace.setTime(Clock.monotonic.now() + Daemon.configGracePeriod)
            grace.setEnabled(.oneshot)
            files.configGraceArmed = true
        }
        return true
    }

    func loadConfig() {
        let (settings, problems) = files.config.load(previous: engine.settings)
        // Each problem is logged when it appears, not again on every reload
        // (a setting changed over D-Bus rewrites the file and so reloads it).
        for p in problems where !facts.configProblems.contains(p.description) { log.warning(p.description) }
        // ConfigProblems follows the file, also when no setting changed.
        facts.configProblems = problems.map(\.description)
        guard settings != engine.settings else { return report() }
        log.info("Settings changed in \(files.config.path); applying them.")
        report(.settingsChanged(settings))
    }
}
