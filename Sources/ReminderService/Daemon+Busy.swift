import Busy
import DBusKit

/// Calls, screen shares, videos and full-screen windows: the `Busy` target's monitor, wired to the
/// engine, the properties and the notifier.
extension Daemon {
    /// Starts the busy monitor; each missing source is logged once by it.
    func startBusyMonitor(_ bus: Connection) {
        let busy = BusyMonitor(session: bus, log: log)
        busyMonitor = busy
        busy.onChange = { [unowned self] state in
            if self.desktopKnown { self.busyChanged(state) }
        }
        let previous = changeHook
        changeHook = { [unowned self] in
            previous?()
            // FullScreenReminders turned on or off while a window is in full screen.
            if self.desktopKnown, let state = self.busyMonitor?.state, self.held(state) != self.busyState {
                self.busyChanged(state)
            }
        }
        busy.start()
    }

    /// What of the monitor's state holds reminders back: all of it, but a full-screen window
    /// while `FullScreenReminders` is on (the reminder then goes out urgent, see `Notifier`).
    func held(_ state: BusyState) -> BusyState {
        state.source == BusyState.fullScreen && engine.settings.fullScreenReminders ? .free : state
    }

    /// Shows the new busy state and tells the engine, in one `PropertiesChanged`.
    /// A full screen left offers a held reminder at once; a call ended, after the grace.
    func busyChanged(_ state: BusyState) {
        notifier?.overFullScreen = busyMonitor?.fullScreen ?? false
        let next = held(state)
        guard next != busyState else { return }
        announcingChanges {
            let grace = busyState.source != BusyState.fullScreen
            busyState = next
            deliver(.busy(next.active, grace: grace))
        }
    }
}
