import Busy
import DBusKit

/// Calls, screen shares and videos: the `Busy` target's monitor, wired to the engine and the properties.
extension Daemon {
    /// Starts the busy monitor; each missing source is logged once by it.
    func startBusyMonitor(_ bus: Connection) {
        let busy = BusyMonitor(session: bus, log: log)
        busyMonitor = busy
        busy.onChange = { [unowned self] state in
            if self.desktopKnown { self.busyChanged(state) }
        }
        busy.start()
    }

    /// Shows the new busy state and tells the engine, in one `PropertiesChanged`.
    /// A full screen left offers a held reminder at once; a call ended, after the grace.
    func busyChanged(_ state: BusyState) {
        announcingChanges {
            let grace = busyState.source != BusyState.fullScreen
            busyState = state
            deliver(.busy(state.active, grace: grace))
        }
    }
}
