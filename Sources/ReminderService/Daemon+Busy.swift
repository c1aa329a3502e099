import Busy
import DBusKit

/// Calls, screen shares, videos and full-screen windows: the `Busy` target's monitor, wired to the
/// engine, the properties and the notifier; its re-check runs first in `afterChange` (Daemon+Followers).
extension Daemon {
    /// Starts the busy monitor; each missing source is logged once by it.
    func startBusyMonitor(_ bus: Connection) {
        let busy = BusyMonitor(session: bus, log: log)
        busyMonitor = busy
        busy.onChange = { [unowned self] state in
            if self.desktopKnown { self.busyChanged(state) }
        }
        busy.onSourcesChange = { [unowned self] in self.refreshCapabilities() }
        busy.start()
    }

    /// FullScreenReminders turned on or off while a window is in full screen: called first in
    /// `afterChange` (Daemon+Followers), so the engine hears the new held state without a pass of
    /// its own, and the followers after it see the final status once.
    func recheckHeldBusy() {
        guard desktopKnown, let state = busyMonitor?.state, held(state) != busyState else { return }
        busyChanged(state, thenFollow: false)
    }

    /// What of the monitor's state holds reminders back: all of it, but a full-screen window
    /// while `FullScreenReminders` is on (the reminder then goes out urgent, see `Notifier`).
    func held(_ state: BusyState) -> BusyState {
        state.source == BusyState.fullScreen && engine.settings.fullScreenReminders ? .free : state
    }

    /// Shows the new busy state and tells the engine, in one `PropertiesChanged`; then, unless
    /// `thenFollow` is false (the re-check inside `afterChange`), the followers.
    /// A full screen left offers a held reminder at once; a call ended, after the grace.
    func busyChanged(_ state: BusyState, thenFollow: Bool = true) {
        notifier?.overFullScreen = busyMonitor?.fullScreen ?? false
        let next = held(state)
        guard next != busyState else { return }
        announcingChanges {
            let grace = busyState.source != BusyState.fullScreen
            busyState = next
            deliver(.busy(next.active, grace: grace), thenFollow: thenFollow)
        }
    }
}
