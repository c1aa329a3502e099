import Busy
import DBusKit

/// Calls, screen shares, videos and full-screen windows: the `Busy` target's monitor. Its reports are
/// facts; what of them holds reminders back is decided before the engine runs (`engineEvents`).
extension Daemon {
    /// Starts the busy monitor; each missing source is logged once by it.
    func startBusyMonitor(_ bus: Connection) {
        let busy = BusyMonitor(session: bus, log: log)
        parts.busy = busy
        busy.onChange = { [unowned self, unowned busy] state in
            self.facts.busy = state
            self.facts.fullScreen = busy.fullScreen
            self.report()
        }
        busy.onSourcesChange = { [unowned self, unowned busy] in
            self.facts.desktop.busy = busy.sourcesFound
            self.report()
        }
        busy.start()
    }
}
