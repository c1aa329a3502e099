import Foundation
import TestSupport

// The rig of `PresenceServiceTests` (see the suite's comment): icared on
// private buses, the python mocks that play the desktop's presence sources.

/// One record of `GetHistory`.
struct PresenceRecord: CustomStringConvertible {
    let at: UInt64
    let outcome: String
    let seconds: UInt32
    var description: String { "(\(at) \(outcome) \(seconds))" }
}

/// One real icared with a private session bus, optionally a private system
/// bus, and the python mocks that play the desktop; everything is killed
/// with SIGKILL at `stop`.
final class PresenceRig: @unchecked Sendable {
    /// What the state file says when icared starts.
    enum StartState {
        /// Counting down since that long ago; the reminder at `nextAt` (default: a full interval after the start).
        case waiting(startedSecondsAgo: UInt64, nextAt: UInt64? = nil)
        /// A reminder went out that long ago.
        case due(sinceSecondsAgo: UInt64)
    }

    static let python = "/usr/bin/python3"
    /// An address where no bus listens: "no system bus at all".
    static let noBus = "unix:path=/nonexistent/icare-test/system_bus_socket"

    /// The pieces of the desktop a test asks for, started before icared.
    enum Piece {
        /// logind with session c1 (`startLogind()`), on a private system bus.
        case logind
        /// The plain logind template (`startLogind(session: false)`), on a private system bus.
        case logindWithoutSession
        /// A private system bus with nothing on it.
        case emptySystemBus
        /// GNOME's screensaver (dbusmock's `gnome_screensaver`) on the session bus.
        case gnomeScreenSaver
        /// GNOME's idle monitor (`startFakeMutter()`).
        case mutter
        /// A notification server (`startNotifications()`).
        case notifications
    }

    let system: PrivateBus?
    let service: ServiceHarness
    private var mocks: [PresenceMock] = []
    /// The pieces the fixture started (nil where the test did not ask for one).
    private(set) var logind: PresenceLogind?
    private(set) var gnomeScreenSaver: PresenceMock?
    private(set) var mutter: PresenceFakeMutter?
    private(set) var notifications: PresenceMock?

    /// The fixture the tests start from: `state` in the state file, the `desktop` pieces started (in
    /// the order of `Piece`), then, unless `startService` is false, icared, waited on (bounded) until
    /// it watches logind's session c1 and GNOME's screensaver where they are. Whatever throws on the
    /// way stops what was started.
    convenience init(_ state: StartState, desktop: Set<Piece>, startService: Bool = true) throws {
        try self.init(systemBus: !desktop.isDisjoint(with: [.logind, .logindWithoutSession, .emptySystemBus]), state: state)
        do {
            if desktop.contains(.logind) { logind = try startLogind() }
            if desktop.contains(.logindWithoutSession) { logind = try startLogind(session: false) }
            if desktop.contains(.gnomeScreenSaver) {
                gnomeScreenSaver = try startSessionMock(name: "org.gnome.ScreenSaver", arguments: ["--template", "gnome_screensaver"])
            }
            if desktop.contains(.mutter) { mutter = try startFakeMutter() }
            if desktop.contains(.notifications) { notifications = try startNotifications() }
            guard startService else { return }
            try self.startService()
            if desktop.contains(.logind) { try waitLogged("watching logind session \(PresenceServiceTests.session)") }
            if desktop.contains(.gnomeScreenSaver) { try waitLogged("watching org.gnome.ScreenSaver") }
        } catch {
            stop()
            throw error
        }
    }

    init(systemBus: Bool, state: StartState, environment: [String: String] = [:]) throws {
        system = systemBus ? try PrivateBus(system: true) : nil
        service = try ServiceHarness(config: "BreakDuration = \(PresenceServiceTests.breakDuration / 1_000_000)\n",
                                     environment: ["DBUS_SYSTEM_BUS_ADDRESS": system.map(Self.withoutGUID) ?? Self.noBus].merging(environment) { $1 },
                                     start: false)
        try FileManager.default.createDirectory(atPath: service.stateDirectory, withIntermediateDirectories: true)
        try Self.stateText(state).write(toFile: service.stateDirectory + "/state", atomically: true, encoding: .utf8)
    }

    /// The system bus's address as a session sees it: the socket's path
    /// without the `guid=` that names one run of the bus (libdbus refuses a
    /// bus whose guid differs, so with it a restarted bus could not be reached).
    static func withoutGUID(_ bus: PrivateBus) -> String {
        bus.address.split(separator: ",").filter { !$0.hasPrefix("guid=") }.joined(separator: ",")
    }

    static func stateText(_ state: StartState) -> String {
        let now = UInt64(Date().timeIntervalSince1970 * 1_000_000)
        var lines = ["icare-engine=1", "clock=\(now)"]
        switch state {
        case .waiting(let ago, let nextAt):
            let start = now - ago * 1_000_000
            lines += ["phase=waiting", "start=\(start)", "next=\(nextAt ?? start + PresenceServiceTests.interval)"]
        case .due(let ago):
            let since = now - ago * 1_000_000
            lines += ["phase=due", "start=\(since - PresenceServiceTests.interval)", "since=\(since)", "held=0"]
        }
        lines.append("pause=none")
        return lines.joined(separator: "\n") + "\n"
    }

    func startService() throws { try service.start() }

    /// GNOME's screensaver turned on or off (`SetActive`), as its lock screen does.
    func setScreenSaverActive(_ active: Bool) throws {
        guard let gnomeScreenSaver else { throw HarnessError("this rig has no GNOME screensaver") }
        try gnomeScreenSaver.call("/org/gnome/ScreenSaver", "org.gnome.ScreenSaver", "SetActive", ["b", active ? "true" : "false"])
    }

    /// Waits (bounded) until icared's log has a line containing `text`.
    func waitLogged(_ text: String, timeout: TimeInterval = 10) throws {
        guard waitUntil(timeout: timeout, { service.log.contains(text) }) else {
            throw HarnessError("icared never logged \"\(text)\"; log:\n\(service.log)")
        }
    }

    /// `GetHistory(0, max)` parsed.
    func history() throws -> [PresenceRecord] {
        let r = try service.call("GetHistory", "tt", "0", PresenceServiceTests.tMax)
        guard r.status == 0 else { throw HarnessError("GetHistory failed: \(r)") }
        let words = r.stdout.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
        guard words.count >= 2, words[0] == "a(tsu)", let n = Int(words[1]), words.count == 2 + 3 * n else {
            throw HarnessError("GetHistory answered \(r.stdout)")
        }
        return (0..<n).map { i in
            PresenceRecord(at: UInt64(words[2 + 3 * i]) ?? 0, outcome: words[3 + 3 * i].trimmingCharacters(in: CharacterSet(charactersIn: "\"")),
                           seconds: UInt32(words[4 + 3 * i]) ?? 0)
        }
    }

    /// dbusmock's real `logind` template on the system bus, with session c1
    /// (active, unlocked) and `GetSession("auto")` answering its real path,
    /// as logind does for a process of that session.
    /// Without `session`, the plain template: `GetSession("auto")` answers
    /// `…/session/auto`, which is no object, and there is no `GetSessionByPID`.
    func startLogind(session: Bool = true) throws -> PresenceLogind {
        guard let system else { throw HarnessError("this rig has no system bus") }
        guard session else {
            let mock = try PresenceMock(address: Self.withoutGUID(system), name: "org.freedesktop.login1", arguments: ["-m", "dbusmock", "--template", "logind"])
            mocks.append(mock)
            return PresenceLogind(mock: mock)
        }
        // The session and GetSession are added while the template loads,
        // before the mock answers anything: icared may call the moment the
        // name appears (it does when the system bus comes back).
        let template = service.home.appendingPathComponent("logind_session_template.py")
        try FileManager.default.createDirectory(at: service.home, withIntermediateDirectories: true)
        try """
        import dbus
        from dbusmock.templates import logind as base
        from dbusmock.templates.logind import *  # its D-Bus methods, attached by dbusmock

        def load(mock, parameters):
            base.load(mock, parameters)
            mock.AddSession('c1', 'seat0', dbus.UInt32(1000), 'user', True)
            mock.AddMethod(MAIN_IFACE, 'GetSession', 's', 'o', "ret = dbus.ObjectPath('\(PresenceServiceTests.session)')")

        """.write(to: template, atomically: true, encoding: .utf8)
        let mock = try PresenceMock(address: Self.withoutGUID(system), name: "org.freedesktop.login1",
                                    arguments: ["-m", "dbusmock", "--template", template.path])
        mocks.append(mock)
        return PresenceLogind(mock: mock)
    }

    /// A dbusmock on the session bus (`arguments` after `-m dbusmock`).
    func startSessionMock(name: String, arguments: [String]) throws -> PresenceMock {
        let mock = try PresenceMock(address: service.bus.address, name: name, arguments: ["-m", "dbusmock"] + arguments)
        mocks.append(mock)
        return mock
    }

    /// A notification server (Notify, CloseNotification with the spec's signatures) on the session bus.
    func startNotifications() throws -> PresenceMock {
        let file = service.home.appendingPathComponent("notifications_template.py")
        try FileManager.default.createDirectory(at: service.home, withIntermediateDirectories: true)
        try """
        BUS_NAME = 'org.freedesktop.Notifications'
        MAIN_OBJ = '/org/freedesktop/Notifications'
        MAIN_IFACE = 'org.freedesktop.Notifications'
        SYSTEM_BUS = False

        def load(mock, parameters):
            mock.next_id = 1
            mock.AddMethods(MAIN_IFACE, [
                ('GetCapabilities', '', 'as', 'ret = ["actions", "body", "persistence"]'),
                ('GetServerInformation', '', 'ssss', 'ret = ("icare-test", "icare", "1.0", "1.2")'),
                ('Notify', 'susssasa{sv}i', 'u', 'ret = args[1] or self.next_id\\nself.next_id += 0 if args[1] else 1'),
                ('CloseNotification', 'u', '', 'self.EmitSignal("", "NotificationClosed", "uu", [args[0], 3])'),
            ])

        """.write(to: file, atomically: true, encoding: .utf8)
        return try startSessionMock(name: "org.freedesktop.Notifications", arguments: ["--template", file.path])
    }

    /// GNOME's idle monitor (see `fakeMutterScript`) on the session bus.
    func startFakeMutter() throws -> PresenceFakeMutter {
        let file = service.home.appendingPathComponent("fake_mutter.py")
        try PresenceFakeMutter.script.write(to: file, atomically: true, encoding: .utf8)
        let mock = try PresenceMock(address: service.bus.address, name: PresenceFakeMutter.name, arguments: [file.path, service.bus.address])
        mocks.append(mock)
        return PresenceFakeMutter(mock: mock)
    }

    func stop() {
        service.kill9()
        for m in mocks { m.kill() }
        mocks = []
        service.stop()
        system?.stop()
    }
}

/// A python3 process serving a name on a private bus (dbusmock, or a script);
/// called through `busctl --address`.
final class PresenceMock: @unchecked Sendable {
    let address: String
    let name: String
    let process: Process
    private let stderrPipe = Pipe()
    private let stderrText = Box("")

    /// Runs `/usr/bin/python3 <arguments>` with both bus variables at `address`; waits for `name`.
    init(address: String, name: String, arguments: [String]) throws {
        self.address = address
        self.name = name
        guard FileManager.default.isExecutableFile(atPath: PresenceRig.python) else {
            throw HarnessError("\(PresenceRig.python) is missing; install python3-dbusmock and python3-gi (scripts/deps.sh).")
        }
        let probe = try Subprocess.run([PresenceRig.python, "-c", "import dbusmock, dbus, gi.repository.GLib"])
        guard probe.status == 0 else { throw HarnessError("python3-dbusmock, python3-dbus or python3-gi is missing: \(probe.stderr)") }
        _ = try Subprocess.which("busctl")
        process = try Subprocess.start([PresenceRig.python] + arguments,
                                       environment: ["DBUS_SYSTEM_BUS_ADDRESS": address, "DBUS_SESSION_BUS_ADDRESS": address],
                                       stderr: stderrPipe)
        // Drained all along, so a chatty mock never blocks on a full pipe.
        stderrPipe.fileHandleForReading.readabilityHandler = { [stderrText] h in
            stderrText.value += String(decoding: h.availableData, as: UTF8.self)
        }
        let up = try waitUntil(timeout: 15, interval: 0.05) {
            guard process.isRunning else { return true }
            let r = try Subprocess.run(["busctl", "--address=\(address)", "call", "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                        "org.freedesktop.DBus", "NameHasOwner", "s", name])
            return r.stdout == "b true\n"
        }
        guard up, process.isRunning else {
            kill()
            throw HarnessError("\(arguments.joined(separator: " ")) did not take \(name): \(stderrText.value)")
        }
    }

    /// `busctl call <name> <path> <interface> <member> <args…>`; throws when the call fails.
    @discardableResult
    func call(_ path: String, _ interface: String, _ member: String, _ args: [String] = []) throws -> String {
        let r = try Subprocess.run(["busctl", "--address=\(address)", "call", name, path, interface, member] + args)
        guard r.status == 0 else { throw HarnessError("\(member) on \(name) failed: \(r)") }
        return r.stdout
    }

    /// How many times a dbusmock method on the main object was called (`GetMethodCalls`).
    func methodCalls(_ member: String, path: String = "/org/freedesktop/Notifications") throws -> Int {
        let out = try call(path, "org.freedesktop.DBus.Mock", "GetMethodCalls", ["s", member])
        let words = out.split(separator: " ")
        guard words.count >= 2, let n = Int(words[1].trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw HarnessError("GetMethodCalls answered \(out)")
        }
        return n
    }

    func kill() {
        stderrPipe.fileHandleForReading.readabilityHandler = nil
        Subprocess.kill9(process)
    }
}

/// Drives the dbusmock logind.
struct PresenceLogind {
    static let manager = "/org/freedesktop/login1"
    let mock: PresenceMock

    /// Sets session properties and emits PropertiesChanged with the values, as logind does.
    /// `props` are busctl words: ["LockedHint", "b", "true", …].
    func update(_ session: String, _ props: [String]) throws {
        try mock.call(session, "org.freedesktop.DBus.Mock", "UpdateProperties",
                      ["sa{sv}", "org.freedesktop.login1.Session", String(props.count / 3)] + props)
    }

    func setLocked(_ session: String, _ locked: Bool) throws {
        try update(session, ["LockedHint", "b", locked ? "true" : "false"])
    }

    /// logind's `PrepareForSleep(b)` on the manager.
    func prepareForSleep(_ value: Bool) throws {
        try mock.call(Self.manager, "org.freedesktop.DBus.Mock", "EmitSignal",
                      ["sssav", "org.freedesktop.login1.Manager", "PrepareForSleep", "b", "1", "b", value ? "true" : "false"])
    }
}

/// A fake `org.gnome.Mutter.IdleMonitor` in python3-dbus with the shape in
/// `docs/desktop-facts.md` and the watch behaviour of mutter: idle watches are
/// persistent (they fire once each time the idle time crosses their
/// interval; input re-arms them), a user-active watch fires at the next
/// input and is removed, and `WatchFired(u)` goes only to the connection
/// that added the watch. A control interface `org.icare.Test.FakeMutter`
/// plays the person (`PretendIdle`, `Input`) and reports what was called.
struct PresenceFakeMutter {
    static let name = "org.gnome.Mutter.IdleMonitor"
    static let path = "/org/gnome/Mutter/IdleMonitor/Core"
    static let control = "org.icare.Test.FakeMutter"
    let mock: PresenceMock

    func pretendIdle(seconds: UInt32) throws { try mock.call(Self.path, Self.control, "PretendIdle", ["u", String(seconds)]) }
    func input() throws { try mock.call(Self.path, Self.control, "Input") }

    /// The calls served so far: "AddIdleWatch 10000", "AddUserActiveWatch", "RemoveWatch 1", "GetIdletime".
    func calls() throws -> [String] {
        let out = try mock.call(Self.path, Self.control, "Calls", ["--json=short"])
        guard let json = try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any],
              let data = json["data"] as? [Any], let list = data.first as? [String] else {
            throw HarnessError("Calls answered \(out)")
        }
        return list
    }

    func watchCounts() throws -> (idle: Int, active: Int) {
        let words = try mock.call(Self.path, Self.control, "WatchCounts").split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard words.count == 3, let i = Int(words[1]), let a = Int(words[2]) else { throw HarnessError("WatchCounts answered \(words)") }
        return (i, a)
    }

    static let script = #"""
    import sys
    import time

    import dbus
    import dbus.lowlevel
    import dbus.mainloop.glib
    import dbus.service
    from gi.repository import GLib

    NAME = 'org.gnome.Mutter.IdleMonitor'
    PATH = '/org/gnome/Mutter/IdleMonitor/Core'
    IFACE = 'org.gnome.Mutter.IdleMonitor'
    CONTROL = 'org.icare.Test.FakeMutter'


    def now_ms():
        return int(time.monotonic() * 1000)


    class Watch:
        def __init__(self, owner, ms):
            self.owner = owner
            self.ms = ms  # 0: a user-active watch
            self.source = None


    class IdleMonitor(dbus.service.Object):
        def __init__(self, conn):
            super().__init__(conn, PATH)
            self.conn = conn
            self.last_input = now_ms()
            self.watches = {}
            self.next_id = 1
            self.calls = []

        @dbus.service.method(IFACE, in_signature='', out_signature='t')
        def GetIdletime(self):
            self.calls.append('GetIdletime')
            return dbus.UInt64(max(0, now_ms() - self.last_input))

        @dbus.service.method(IFACE, in_signature='t', out_signature='u', sender_keyword='sender')
        def AddIdleWatch(self, interval, sender=None):
            self.calls.append('AddIdleWatch %d' % interval)
            if interval == 0:
                raise dbus.exceptions.DBusException('interval must be above 0',
                                                    name='org.freedesktop.DBus.Error.InvalidArgs')
            return self.add(sender, int(interval))

        @dbus.service.method(IFACE, in_signature='', out_signature='u', sender_keyword='sender')
        def AddUserActiveWatch(self, sender=None):
            self.calls.append('AddUserActiveWatch')
            return self.add(sender, 0)

        @dbus.service.method(IFACE, in_signature='u', out_signature='')
        def RemoveWatch(self, watch_id):
            self.calls.append('RemoveWatch %d' % watch_id)
            w = self.watches.pop(int(watch_id), None)
            if w is not None and w.source is not None:
                GLib.source_remove(w.source)

        @dbus.service.signal(IFACE, signature='u')
        def WatchFired(self, watch_id):
            """Declared for Introspect; fire() sends it to the watch's owner only."""

        @dbus.service.method(CONTROL, in_signature='u', out_signature='')
        def PretendIdle(self, seconds):
            self.last_input = now_ms() - int(seconds) * 1000
            for watch_id, w in list(self.watches.items()):
                if w.ms > 0:
                    self.arm(watch_id)

        @dbus.service.method(CONTROL, in_signature='', out_signature='')
        def Input(self):
            self.last_input = now_ms()
            for watch_id in sorted(self.watches):
                w = self.watches.get(watch_id)
                if w is None:
                    continue
                if w.ms == 0:
                    self.fire(watch_id)
                else:
                    self.arm(watch_id)

        @dbus.service.method(CONTROL, in_signature='', out_signature='as')
        def Calls(self):
            return dbus.Array(self.calls, signature='s')

        @dbus.service.method(CONTROL, in_signature='', out_signature='uu')
        def WatchCounts(self):
            idle = sum(1 for w in self.watches.values() if w.ms > 0)
            return (dbus.UInt32(idle), dbus.UInt32(len(self.watches) - idle))

        def add(self, owner, ms):
            watch_id = self.next_id
            self.next_id += 1
            self.watches[watch_id] = Watch(owner, ms)
            if ms > 0:
                self.arm(watch_id)
            return dbus.UInt32(watch_id)

        def arm(self, watch_id):
            w = self.watches[watch_id]
            if w.source is not None:
                GLib.source_remove(w.source)
            delay = max(0, self.last_input + w.ms - now_ms())
            w.source = GLib.timeout_add(delay, self.expired, watch_id)

        def expired(self, watch_id):
            w = self.watches.get(watch_id)
            if w is not None:
                w.source = None
                self.fire(watch_id)
            return False

        def fire(self, watch_id):
            w = self.watches.get(watch_id)
            if w is None:
                return
            msg = dbus.lowlevel.SignalMessage(PATH, IFACE, 'WatchFired')
            msg.append(dbus.UInt32(watch_id), signature='u')
            msg.set_destination(w.owner)
            self.conn.send_message(msg)
            if w.ms == 0:
                del self.watches[watch_id]


    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    connection = dbus.bus.BusConnection(sys.argv[1])
    monitor = IdleMonitor(connection)
    name = dbus.service.BusName(NAME, connection)
    GLib.MainLoop().run()

    """#
}
