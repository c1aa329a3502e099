import Glibc
import CWayland
import CWaylandProtocols
import SystemdKit

/// Learns from the Wayland compositor when the seat has had no input for a
/// timeout and when input comes back, through `ext-idle-notify-v1` or KDE's
/// `org_kde_kwin_idle` (as swayidle does), on the sd-event loop's thread.
///
/// The sequence (shapes in docs/wayland-idle.md): `wl_display.get_registry`
/// and a `wl_display.sync`; the registry's `global` events name what the
/// compositor offers, and the sync's `done` says all of them came. Then the
/// first `wl_seat` and the chosen manager are bound and one notification
/// object is made for the timeout; its `idled`/`idle` and `resumed` events
/// are the person leaving and coming back. C calls back into Swift through
/// listener tables with this object as the unretained context pointer; the
/// proxies (and so the callbacks) end before the object does.
public final class WaylandIdleWatch {
    /// How the watch stands.
    public enum Status: Equatable, Sendable {
        /// Watching through this protocol.
        case watching(IdleProtocol)
        /// The compositor offers neither protocol (or no seat); the watch stopped.
        case unsupported
        /// The connection was lost (the reason in words); the watch stopped.
        case gone(String)
    }

    /// Called when the watch starts, finds nothing to use, or loses the compositor.
    public var onStatus: ((Status) -> Void)?
    /// The person has been idle for the timeout (true), or is back (false).
    public var onIdle: ((Bool) -> Void)?
    /// The protocol in use, once the registry was read.
    public private(set) var chosen: IdleProtocol?
    /// Whether the compositor said idle and not resumed since.
    public var idle: Bool { tracker.idle }
    /// The timeout asked for, ms.
    public var timeoutMs: UInt32 { tracker.wantedMs }
    /// The timeout of the notification object the compositor has now, ms (nil: none).
    public var activeTimeoutMs: UInt32? { tracker.activeMs }

    private let connection: WaylandConnection
    private var tracker: IdleTracker
    private var registry: OpaquePointer?
    private var sync: OpaquePointer?
    private var seat: (name: UInt32, proxy: OpaquePointer)?
    private var manager: (name: UInt32, proxy: OpaquePointer)?
    private var notification: OpaquePointer?
    private var globals: [(name: UInt32, interface: String)] = []
    private var ended = false
    private let listeners = Listeners()

    /// Connects to display `name` (as in `WAYLAND_DISPLAY`: a socket name
    /// under `XDG_RUNTIME_DIR` or an absolute path) and drives it on `loop`.
    public convenience init(display name: String, loop: EventLoop, timeoutMs: UInt32) throws(WaylandError) {
        try self.init(connection: WaylandConnection(name: name), loop: loop, timeoutMs: timeoutMs)
    }

    /// Uses a connected socket `fd` (owned from now on); for tests.
    public convenience init(fd: Int32, loop: EventLoop, timeoutMs: UInt32) throws(WaylandError) {
        try self.init(connection: WaylandConnection(fd: fd), loop: loop, timeoutMs: timeoutMs)
    }

    private init(connection: WaylandConnection, loop: EventLoop, timeoutMs: UInt32) throws(WaylandError) {
        self.connection = connection
        tracker = IdleTracker(timeoutMs: max(timeoutMs, 1))
        try connection.attach(to: loop)
        connection.onFailure = { [weak self] reason in self?.lost(reason) }
    }

    deinit { stop() }

    /// Reads the registry; the status follows once the compositor answered.
    public func start() {
        guard registry == nil, !ended, let display = connection.display else { return }
        let context = Unmanaged.passUnretained(self).toOpaque()
        registry = wl_display_get_registry(display)
        wl_registry_add_listener(registry, listeners.registry, context)
        sync = wl_display_sync(display)
        wl_callback_add_listener(sync, listeners.sync, context)
        connection.flush()
    }

    /// Asks for a new timeout (replaced at once, or at the return while idle).
    public func setTimeout(ms: UInt32) {
        apply(tracker.setTimeout(ms: max(ms, 1)))
    }

    /// Ends the watch quietly and disconnects; no status, no idle report. Idempotent.
    public func stop() {
        guard !ended else { return }
        ended = true
        _ = tracker.lost()
        destroyProxies()
        connection.flush()
        connection.close()
    }

    // MARK: events from the compositor (called by the listeners)

    fileprivate func global(name: UInt32, interface: String) {
        globals.append((name, interface))
    }

    fileprivate func globalRemoved(name: UInt32) {
        globals.removeAll { $0.name == name }
        if name == seat?.name || name == manager?.name { lost("the compositor removed the seat or the idle manager") }
    }

    fileprivate func registryDone() {
        if let sync { wl_callback_destroy(sync) }
        sync = nil
        guard let registry, let chosen = IdleProtocol.choose(from: globals.map(\.interface)),
              let seatName = globals.first(where: { $0.interface == "wl_seat" })?.name,
              let managerName = globals.first(where: { $0.interface == chosen.globalName })?.name else {
            end()
            onStatus?(.unsupported)
            return
        }
        self.chosen = chosen
        let interface = chosen == .extIdleNotify ? icare_ext_idle_notifier_v1_interface() : icare_org_kde_kwin_idle_interface()
        if let p = wl_registry_bind(registry, seatName, icare_wl_seat_interface(), 1) { seat = (seatName, OpaquePointer(p)) }
        if let p = wl_registry_bind(registry, managerName, interface, 1) { manager = (managerName, OpaquePointer(p)) }
        guard seat != nil, manager != nil else { return lost("libwayland could not make the seat or idle manager object") }
        makeNotification(ms: tracker.wantedMs)
        connection.flush()
        onStatus?(.watching(chosen))
    }

    fileprivate func idled() { apply(tracker.idled()) }
    fileprivate func resumed() { apply(tracker.resumed()) }

    // MARK: objects

    private func apply(_ step: IdleTracker.Step) {
        if let ms = step.recreate, !ended {
            makeNotification(ms: ms)
            connection.flush()
        }
        if let idle = step.report { onIdle?(idle) }
    }

    /// Replaces the notification object with one for `ms`.
    private func makeNotification(ms: UInt32) {
        destroyNotification()
        guard let seat, let manager, let chosen else { return }
        let context = Unmanaged.passUnretained(self).toOpaque()
        switch chosen {
        case .extIdleNotify:
            notification = ext_idle_notifier_v1_get_idle_notification(manager.proxy, ms, seat.proxy)
            ext_idle_notification_v1_add_listener(notification, listeners.ext, context)
        case .kdeIdle:
            notification = org_kde_kwin_idle_get_idle_timeout(manager.proxy, seat.proxy, ms)
            org_kde_kwin_idle_timeout_add_listener(notification, listeners.kde, context)
        }
        tracker.created(ms: ms)
    }

    private func destroyNotification() {
        guard let n = notification else { return }
        notification = nil
        switch chosen {
        case .extIdleNotify: ext_idle_notification_v1_destroy(n)
        case .kdeIdle: org_kde_kwin_idle_timeout_release(n)
        case nil: break
        }
    }

    private func destroyProxies() {
        destroyNotification()
        if let m = manager?.proxy {
            if chosen == .extIdleNotify { ext_idle_notifier_v1_destroy(m) } else { org_kde_kwin_idle_destroy(m) }
        }
        manager = nil
        if let s = seat?.proxy { wl_seat_destroy(s) }
        seat = nil
        if let sync { wl_callback_destroy(sync) }
        sync = nil
        if let registry { wl_registry_destroy(registry) }
        registry = nil
    }

    /// Stops without a status (the caller gives one).
    private func end() {
        ended = true
        destroyProxies()
        connection.flush()
        connection.close()
    }

    /// The compositor is gone: not idle any more (reported), then `.gone`.
    private func lost(_ reason: String) {
        guard !ended else { return }
        ended = true
        let step = tracker.lost()
        destroyProxies()
        connection.close()
        if let idle = step.report { onIdle?(idle) }
        onStatus?(.gone(reason))
    }
}

/// The C listener tables, allocated once per watch (libwayland keeps their
/// address); each entry finds the watch through the context pointer.
private final class Listeners {
    let registry = UnsafeMutablePointer<wl_registry_listener>.allocate(capacity: 1)
    let sync = UnsafeMutablePointer<wl_callback_listener>.allocate(capacity: 1)
    let ext = UnsafeMutablePointer<ext_idle_notification_v1_listener>.allocate(capacity: 1)
    let kde = UnsafeMutablePointer<org_kde_kwin_idle_timeout_listener>.allocate(capacity: 1)

    init() {
        registry.initialize(to: wl_registry_listener(
            global: { data, _, name, interface, _ in
                guard let interface else { return }
                watch(data)?.global(name: name, interface: String(cString: interface))
            },
            global_remove: { data, _, name in watch(data)?.globalRemoved(name: name) }))
        sync.initialize(to: wl_callback_listener(done: { data, _, _ in watch(data)?.registryDone() }))
        ext.initialize(to: ext_idle_notification_v1_listener(
            idled: { data, _ in watch(data)?.idled() },
            resumed: { data, _ in watch(data)?.resumed() }))
        kde.initialize(to: org_kde_kwin_idle_timeout_listener(
            idle: { data, _ in watch(data)?.idled() },
            resumed: { data, _ in watch(data)?.resumed() }))
    }

    deinit {
        registry.deallocate()
        sync.deallocate()
        ext.deallocate()
        kde.deallocate()
    }
}

private func watch(_ data: UnsafeMutableRawPointer?) -> WaylandIdleWatch? {
    data.map { Unmanaged<WaylandIdleWatch>.fromOpaque($0).takeUnretainedValue() }
}
