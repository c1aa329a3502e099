import Foundation
import DBusKit
import SystemdKit
import TestSupport
import LoopSupport

/// A python3-dbusmock process (Debian's, under /usr/bin/python3) serving a
/// template or a plain object on a private bus; driven through `busctl`.
final class DBusMock: @unchecked Sendable {
    let bus: PrivateBus
    let name: String
    private(set) var process: Process

    /// Starts `python3 -m dbusmock <arguments>` with both bus variables pointing at `bus`, and waits for `name`.
    init(bus: PrivateBus, name: String, arguments: [String]) throws {
        self.bus = bus
        self.name = name
        let python = "/usr/bin/python3"
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw HarnessError("/usr/bin/python3 is missing; install python3-dbusmock (scripts/deps.sh).")
        }
        let probe = try Subprocess.run([python, "-c", "import dbusmock"])
        guard probe.status == 0 else { throw HarnessError("python3-dbusmock is not installed: \(probe.stderr)") }
        process = try Subprocess.start([python, "-m", "dbusmock"] + arguments,
                                       environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address, "DBUS_SESSION_BUS_ADDRESS": bus.address])
        try waitForName()
    }

    func waitForName() throws {
        let ok = try waitUntil(timeout: 15, interval: 0.05) {
            let r = try Subprocess.run(["busctl", "--address=\(bus.address)", "call", "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                        "org.freedesktop.DBus", "NameHasOwner", "s", name])
            return r.stdout == "b true\n"
        }
        guard ok else { throw HarnessError("dbusmock did not take \(name)") }
    }

    /// `busctl call <name> <path> <interface> <member> <args…>`; throws when the call fails.
    @discardableResult
    func call(_ path: String, _ interface: String, _ member: String, _ args: [String] = []) throws -> String {
        let r = try Subprocess.run(["busctl", "--address=\(bus.address)", "call", name, path, interface, member] + args)
        guard r.status == 0 else { throw HarnessError("\(member) failed: \(r)") }
        return r.stdout
    }

    /// A call on the mock's control interface `org.freedesktop.DBus.Mock`.
    @discardableResult
    func mock(_ path: String, _ member: String, _ args: [String]) throws -> String {
        try call(path, "org.freedesktop.DBus.Mock", member, args)
    }

    func kill() { Subprocess.kill9(process) }
    deinit { kill() }
}

/// logind from dbusmock's real `logind` template, on a system-type private bus.
final class LogindMock: @unchecked Sendable {
    static let manager = "/org/freedesktop/login1"
    static let sessionIface = "org.freedesktop.login1.Session"
    let mock: DBusMock

    /// The plain template, or, with `session`, the template plus that session
    /// already in place when the name appears (`autoResolves`: plus a
    /// `GetSession` that answers the real path, as real logind does).
    init(systemBus: PrivateBus, session: String? = nil, autoResolves: Bool = false) throws {
        guard let session else {
            mock = try DBusMock(bus: systemBus, name: "org.freedesktop.login1", arguments: ["--template", "logind"])
            return
        }
        // A template file that loads the real `logind` template, then adds to it.
        let file = systemBus.directory.appendingPathComponent("logind_with_session.py")
        try Self.wrapper.write(to: file, atomically: true, encoding: .utf8)
        let parameters = "{\"session\": \"\(session)\", \"auto\": \(autoResolves)}"
        mock = try DBusMock(bus: systemBus, name: "org.freedesktop.login1", arguments: ["--template", file.path, "-p", parameters])
    }

    private static let wrapper = """
    from dbusmock.templates.logind import *
    from dbusmock.templates import logind as real

    def load(mock, parameters):
        real.load(mock, parameters)
        path = mock.AddSession(parameters['session'], 'seat0', 1000, 'user', True)
        if parameters.get('auto'):
            mock.AddMethod(MAIN_IFACE, 'GetSession', 's', 'o', 'ret = dbus.ObjectPath("%s")' % path)

    """

    /// Adds session `id` (active) and returns its path.
    @discardableResult
    func addSession(_ id: String = "c1") throws -> String {
        try mock.mock(Self.manager, "AddSession", ["ssusb", id, "seat0", "1000", "user", "true"])
        return "/org/freedesktop/login1/session/\(id)"
    }

    /// Makes `GetSession("auto")` answer the real path, as real logind does
    /// (the template answers `…/session/auto`, which is no object).
    func makeAutoResolve(to path: String) throws {
        try mock.mock(Self.manager, "AddMethod", ["sssss", "org.freedesktop.login1.Manager", "GetSession", "s", "o",
                                                  "ret = dbus.ObjectPath('\(path)')"])
    }

    /// Adds `GetSessionByPID` (the template lacks it) answering `path`.
    func addGetSessionByPID(answering path: String) throws {
        try mock.mock(Self.manager, "AddMethod", ["sssss", "org.freedesktop.login1.Manager", "GetSessionByPID", "u", "o",
                                                  "ret = dbus.ObjectPath('\(path)')"])
    }

    /// Sets session properties and emits PropertiesChanged with the values (`UpdateProperties`).
    /// `props` are busctl words, e.g. ["LockedHint", "b", "true"].
    func update(_ session: String, _ count: Int, _ props: [String]) throws {
        try mock.mock(session, "UpdateProperties", ["sa{sv}", Self.sessionIface, String(count)] + props)
    }

    func prepareForSleep(_ value: Bool) throws {
        try mock.mock(Self.manager, "EmitSignal", ["sssav", "org.freedesktop.login1.Manager", "PrepareForSleep", "b", "1", "b", value ? "true" : "false"])
    }

    func kill() { mock.kill() }
}
