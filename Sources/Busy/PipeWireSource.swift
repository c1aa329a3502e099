internal import CPipeWire
import Glibc
import SystemdKit

/// Cameras, microphones and screen casts, from PipeWire's graph: the
/// registry announces each node, and each stream or video node that could
/// count is bound for its info events (state and properties), as GNOME
/// Shell's camera indicator does. Busy while such a node is `running`
/// (`PipeWireNodeKind`): camera before screen share before microphone.
///
/// PipeWire's own loop is driven by the one sd-event loop: its fd is
/// watched for readiness and then dispatched without waiting
/// (`pw_loop_iterate(loop, 0)`); no thread, no timer. When PipeWire is not
/// running, or goes away (`error` on the core with `-EPIPE`), the state is
/// dropped and its socket's folder is watched until it comes back.
final class PipeWireSource: InhibitorSource {
    let name = "PipeWire"
    var absence: String {
        if let missingProtocol {
            return "libpipewire cannot load its native protocol (\(missingProtocol); PipeWire's client modules, in Debian's "
                + "libpipewire-0.3-modules, may not be installed), so cameras, microphones and screen sharing are not watched"
        }
        return "PipeWire is not running (no \(socketPath)); cameras, microphones and screen sharing are watched once it starts"
    }
    /// Why libpipewire could not load its native protocol module, when it could not:
    /// then nothing can reach the daemon, and its socket is not waited for.
    private var missingProtocol: String?
    private var libraryLog: PipeWireLog?
    private var entered = false
    private(set) var present: Bool?
    var onChange: (() -> Void)?
    private let eventLoop: EventLoop
    private let problem: (String) -> Void
    private let log: Log
    let socketPath: String
    private var loop: UnsafeMutablePointer<pw_loop>?
    private var loopWatch: EventSource?
    private var context: OpaquePointer?
    private var core: OpaquePointer?
    private var registry: OpaquePointer?
    private let coreHook = UnsafeMutablePointer<spa_hook>.allocate(capacity: 1)
    private let registryHook = UnsafeMutablePointer<spa_hook>.allocate(capacity: 1)
    private let coreEvents = UnsafeMutablePointer<pw_core_events>.allocate(capacity: 1)
    private let registryEvents = UnsafeMutablePointer<pw_registry_events>.allocate(capacity: 1)
    let nodeEvents = UnsafeMutablePointer<pw_node_events>.allocate(capacity: 1)
    private var nodes: [UInt32: PipeWireNode] = [:]
    private var waiter: SocketWaiter?
    private var dropLater: EventSource?
    /// Counts nodes starting to run, so the latest one speaks.
    private var runs: UInt64 = 0
    private var reported = BusyState.free

    init(loop: EventLoop, log: Log, problem: @escaping (String) -> Void) {
        eventLoop = loop
        self.log = log
        self.problem = problem
        socketPath = Self.socketPath()
        for hook in [coreHook, registryHook] { hook.initialize(to: spa_hook()) }
        coreEvents.initialize(to: pw_core_events())
        coreEvents.pointee.version = icare_pw_core_events_version
        coreEvents.pointee.error = { data, id, _, res, _ in
            guard let data, id == icare_pw_id_core, res == -EPIPE else { return }
            Unmanaged<PipeWireSource>.fromOpaque(data).takeUnretainedValue().lost()
        }
        registryEvents.initialize(to: pw_registry_events())
        registryEvents.pointee.version = icare_pw_registry_events_version
        registryEvents.pointee.global = { data, id, _, type, _, props in
            guard let data, let type, String(cString: type) == "PipeWire:Interface:Node" else { return }
            Unmanaged<PipeWireSource>.fromOpaque(data).takeUnretainedValue().global(id, PipeWireNode.dictionary(props))
        }
        registryEvents.pointee.global_remove = { data, id in
            guard let data else { return }
            Unmanaged<PipeWireSource>.fromOpaque(data).takeUnretainedValue().remove(id)
        }
        nodeEvents.initialize(to: pw_node_events())
        nodeEvents.pointee.version = icare_pw_node_events_version
        nodeEvents.pointee.info = { data, info in
            guard let data, let info else { return }
            Unmanaged<PipeWireNode>.fromOpaque(data).takeUnretainedValue().update(info.pointee)
        }
    }

    deinit {
        disconnect()
        if let context { pw_context_destroy(context) }
        if let loop {
            if entered { icare_pw_loop_leave(loop) }
            pw_loop_destroy(loop)
        }
        libraryLog?.stop()
        coreHook.deallocate()
        registryHook.deallocate()
        coreEvents.deallocate()
        registryEvents.deallocate()
        nodeEvents.deallocate()
    }

    /// Where libpipewire looks for the daemon: `PIPEWIRE_REMOTE` (default
    /// `pipewire-0`) in `PIPEWIRE_RUNTIME_DIR`, else `XDG_RUNTIME_DIR`.
    static func socketPath() -> String {
        func env(_ name: String) -> String? { getenv(name).map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } }
        let remote = env("PIPEWIRE_REMOTE") ?? "pipewire-0"
        if remote.hasPrefix("/") { return remote }
        let folder = env("PIPEWIRE_RUNTIME_DIR") ?? env("XDG_RUNTIME_DIR") ?? "/run/user/\(getuid())"
        return "\(folder)/\(remote)"
    }

    var state: BusyState {
        let running = nodes.values.filter(\.running)
        func latest(_ match: (PipeWireNode) -> Bool) -> PipeWireNode? { running.filter(match).max { $0.since < $1.since } }
        for kind in ["camera", "screen-share", "microphone"] {
            guard let node = latest({ $0.kind == kind }) else { continue }
            // A camera device or a compositor's cast is a source; the app watching it says more.
            let source = ["Video/Source", "Stream/Output/Video"].contains(node.mediaClass)
            let viewer = source ? latest { $0.mediaClass == "Stream/Input/Video" } : nil
            return BusyState(active: true, source: kind, reason: (viewer ?? node).who)
        }
        return .free
    }

    func start() {
        pw_init(nil, nil)
        libraryLog = PipeWireLog.route(to: log)
        // No config file (the name "null", quoted: a bare null would unset the key and load client.conf
        // with its six modules), no D-Bus plugin: only the native protocol is needed to reach the daemon.
        let props = pw_properties_new_string("config.name=\"null\" support.dbus=false")
        loop = pw_loop_new(nil)
        guard let loop, let context = pw_context_new(loop, props, 0) else {
            problem("libpipewire could not make its loop or context: \(String(cString: strerror(errno)))")
            present = false
            onChange?()
            return
        }
        self.context = context
        guard pw_context_load_module(context, "libpipewire-module-protocol-native", nil, nil) != nil else {
            missingProtocol = String(cString: strerror(errno))
            present = false
            onChange?()
            return
        }
        icare_pw_loop_enter(loop)
        entered = true
        loopWatch = try? eventLoop.addIO(fd: icare_pw_loop_fd(loop), events: IOEvents.readable.rawValue) { [unowned self] _ in
            guard let loop = self.loop else { return }
            let result = icare_pw_loop_dispatch(loop)
            if result < 0, result != -EINTR { self.problem("PipeWire's loop failed: \(String(cString: strerror(-result)))") }
        }
        waiter = SocketWaiter(loop: eventLoop, path: socketPath) { [unowned self] in self.connect() }
        if !connect() {
            present = false
            onChange?()
            waiter?.start()
        }
    }

    /// Connects to the daemon and asks for its registry; whether it could.
    private func connect() -> Bool {
        guard core == nil else { return true }
        guard let context, let core = pw_context_connect(context, nil, 0) else { return false }
        self.core = core
        let me = Unmanaged.passUnretained(self).toOpaque()
        icare_pw_core_add_listener(core, coreHook, coreEvents, me)
        registry = icare_pw_core_registry(core)
        if let registry { icare_pw_registry_add_listener(registry, registryHook, registryEvents, me) }
        if present == false { log.info("PipeWire is running; watching cameras, microphones and screen sharing.") }
        present = true
        onChange?()
        return true
    }

    /// The daemon went away: its nodes are forgotten (after this callback
    /// returns: the core is not torn down from inside its own event), and
    /// its socket is waited for.
    private func lost() {
        guard dropLater == nil else { return }
        dropLater = try? eventLoop.addDefer { [unowned self] in
            self.dropLater = nil
            self.disconnect()
            self.log.warning("Lost PipeWire; cameras, microphones and screen sharing are watched again when it is back.")
            self.present = false
            self.onChange?()
            self.waiter?.start()
        }
    }

    private func disconnect() {
        for node in nodes.values { node.destroy() }
        nodes = [:]
        reported = .free
        if registry != nil {
            icare_spa_hook_remove(registryHook)
            pw_proxy_destroy(registry)
            registry = nil
        }
        if let core {
            icare_spa_hook_remove(coreHook)
            pw_core_disconnect(core)
            self.core = nil
        }
    }

    private func global(_ id: UInt32, _ props: [String: String]) {
        guard let registry, nodes[id] == nil, PipeWireNodeKind.worthFollowing(props) else { return }
        guard let proxy = icare_pw_registry_bind_node(registry, id) else { return }
        let node = PipeWireNode(id: id, proxy: proxy, props: props)
        node.onChange = { [unowned self, unowned node] wasRunning in
            if node.running, !wasRunning {
                self.runs += 1
                node.since = self.runs
            }
            self.report()
        }
        nodes[id] = node
        node.listen(nodeEvents)
    }

    private func remove(_ id: UInt32) {
        guard let node = nodes.removeValue(forKey: id) else { return }
        node.destroy()
        report()
    }

    /// Tells the monitor only when the summed state moved.
    private func report() {
        let now = state
        guard now != reported else { return }
        reported = now
        onChange?()
    }
}
