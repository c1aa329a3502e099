import Foundation
import CDBus
import DBusKit
import SystemdKit
import TestSupport

/// GNOME's idle monitor with the shape in `docs/desktop-facts.md` and the watch
/// behaviour of mutter's `meta-idle-monitor.c`: idle watches are persistent
/// and re-armed by input, user-active watches fire once and are removed,
/// an idle inhibitor freezes idle watches, and `WatchFired` goes only to the
/// connection that added the watch. Time is real; `pretendIdle` moves the
/// last input into the past. Lives on its own loop thread, like a separate process.
final class FakeMutter {
    static let name = "org.gnome.Mutter.IdleMonitor"
    static let path = ObjectPath("/org/gnome/Mutter/IdleMonitor/Core")
    static let interface = InterfaceName("org.gnome.Mutter.IdleMonitor")

    private struct Watch {
        let owner: String
        let ms: UInt64
        var timer: EventSource?
    }

    let connection: Connection
    private var object: ExportedObject!
    private var lastInput = Int64(Clock.monotonic.now())
    private var watches: [UInt32: Watch] = [:]
    private var nextID: UInt32 = 1
    /// The calls served, e.g. "AddIdleWatch 30000", "AddUserActiveWatch", "RemoveWatch 1", "GetIdletime".
    private(set) var calls: [String] = []
    /// Whether an idle inhibitor is held (gnome-session's `InhibitedActions` idle flag).
    private(set) var inhibited = false

    init(address: String, loop: EventLoop) throws {
        connection = try Connection(address: address, loop: loop)
        object = ExportedObject(path: Self.path, interfaces: [
            Interface(Self.interface.rawValue, doc: "Mutter's idle monitor.", methods: [
                Method("GetIdletime", out: [Argument("idletime", "t")], doc: "ms since the last input.") { [unowned self] _ in
                    self.calls.append("GetIdletime")
                    return [.uint64(UInt64(max(0, self.now - self.lastInput)) / 1000)]
                },
                Method("AddIdleWatch", in: [Argument("interval", "t")], out: [Argument("id", "u")], doc: "Fires after interval ms idle.") { [unowned self] call throws(DBusKit.DBusError) in
                    let ms = call.arguments[0].uint64!
                    self.calls.append("AddIdleWatch \(ms)")
                    guard ms > 0 else { throw DBusKit.DBusError.invalidArgs("interval must be above 0") }
                    return [.uint32(self.add(owner: call.sender, ms: ms))]
                },
                Method("AddUserActiveWatch", out: [Argument("id", "u")], doc: "Fires once at the next input.") { [unowned self] call in
                    self.calls.append("AddUserActiveWatch")
                    return [.uint32(self.add(owner: call.sender, ms: 0))]
                },
                Method("RemoveWatch", in: [Argument("id", "u")], doc: "Removes a watch.") { [unowned self] call in
                    let id = call.arguments[0].uint32!
                    self.calls.append("RemoveWatch \(id)")
                    self.watches.removeValue(forKey: id)?.timer?.cancel()
                    return []
                },
            ], signals: [SignalDescription("WatchFired", [Argument("id", "u")], doc: "A watch fired.")]),
        ])
        connection.export(object)
        guard try connection.requestName(BusName(Self.name)) == .primaryOwner else { throw HarnessError("could not own \(Self.name)") }
    }

    private var now: Int64 { Int64(Clock.monotonic.now()) }

    /// The ids of the watches currently held, idle ones and user-active ones.
    var idleWatchCount: Int { watches.values.filter { $0.ms > 0 }.count }
    var activeWatchCount: Int { watches.values.filter { $0.ms == 0 }.count }

    /// Input from the person: user-active watches fire (and go), idle watches re-arm.
    func input() {
        lastInput = now
        for (id, w) in watches.sorted(by: { $0.key < $1.key }) {
            if w.ms == 0 { fire(id) } else { arm(id) }
        }
    }

    /// As if the last input was `seconds` ago.
    func pretendIdle(seconds: Int64) {
        lastInput = now - seconds * 1_000_000
        for id in watches.keys where watches[id]!.ms > 0 { arm(id) }
    }

    func setInhibited(_ value: Bool) {
        guard value != inhibited else { return }
        inhibited = value
        if !value { lastInput = now }
        for id in watches.keys where watches[id]!.ms > 0 { arm(id) }
    }

    /// Leaves the bus, as gnome-shell does when it restarts.
    func quit() { connection.close() }

    private func add(owner: String, ms: UInt64) -> UInt32 {
        let id = nextID
        nextID += 1
        watches[id] = Watch(owner: owner, ms: ms, timer: nil)
        if ms > 0 { arm(id) }
        return id
    }

    private func arm(_ id: UInt32) {
        guard var w = watches[id] else { return }
        w.timer?.cancel()
        w.timer = nil
        if !inhibited {
            let deadline = max(1, lastInput + Int64(w.ms) * 1000)
            w.timer = try? connection.loop.addTimer(clock: .monotonic, at: UInt64(deadline), accuracy: 1000) { [unowned self] in
                self.watches[id]?.timer = nil
                self.fire(id)
            }
        }
        watches[id] = w
    }

    private func fire(_ id: UInt32) {
        guard let w = watches[id] else { return }
        let signal = Message.signal(path: Self.path, interface: Self.interface, member: MemberName("WatchFired"), arguments: [.uint32(id)])
        dbus_message_set_destination(signal.raw, w.owner)
        connection.send(signal)
        if w.ms == 0 { watches.removeValue(forKey: id) }
    }
}
