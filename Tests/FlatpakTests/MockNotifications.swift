import Foundation
import TestSupport

/// python3-dbusmock's `notification_daemon` template on the rig's bus, outside the sandbox
/// (`python3 -m dbusmock --session -t notification_daemon`), read and driven through its
/// org.freedesktop.DBus.Mock interface with busctl: the Notify calls it got, and a click as
/// ActionInvoked sent from the server's own connection (icared ignores one from anyone else).
final class MockNotifications: @unchecked Sendable {
    private let environment: [String: String]
    private let process: Process

    /// `capabilities` as the template's parameter takes them; with `inhibitions` the server also has
    /// Plasma's `Inhibited` (b, false) on org.freedesktop.Notifications, changed with `inhibit(_:)`.
    init(environment: [String: String], capabilities: String = "actions body") throws {
        self.environment = environment
        let probe = try Subprocess.run(["/usr/bin/python3", "-c", "import dbusmock"])
        guard probe.status == 0 else { throw HarnessError("python3-dbusmock is missing (scripts/deps.sh --test): \(probe.stderr)") }
        process = try startOwning("org.freedesktop.Notifications", ["/usr/bin/python3", "-m", "dbusmock", "--session", "-t", "notification_daemon",
                                                                    "-p", #"{"capabilities": "\#(capabilities)"}"#], environment: environment)
    }

    func stop() { Subprocess.kill9(process) }

    /// Plasma's do-not-disturb switch as its server shows it: `Inhibited` set, with PropertiesChanged.
    func inhibit(_ on: Bool) throws {
        _ = try mock("UpdateProperties", "sa{sv}", ["org.freedesktop.Notifications", "1", "Inhibited", "b", on ? "true" : "false"])
    }

    /// Adds `Inhibited` (false) to the server's interface, as Plasma's server has it.
    func addInhibited() throws {
        _ = try mock("AddProperty", "ssv", ["org.freedesktop.Notifications", "Inhibited", "b", "false"])
    }

    private func mock(_ method: String, _ signature: String, _ args: [String], json: Bool = false) throws -> String {
        let r = try Subprocess.run(["busctl", "--user"] + (json ? ["--json=short"] : [])
                                   + ["call", "org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                                      "org.freedesktop.DBus.Mock", method, signature] + args, environment: environment)
        guard r.status == 0 else { throw HarnessError("Mock.\(method) failed: \(r)") }
        return r.stdout
    }

    /// Each Notify the server got: app name, replaces id, summary and the actions (key, label, key, label…).
    func notifies() throws -> [(app: String, replaces: Int, summary: String, actions: [String])] {
        let json = try JSONSerialization.jsonObject(with: Data(try mock("GetMethodCalls", "s", ["Notify"], json: true).utf8))
        let rows = ((json as? [String: Any])?["data"] as? [Any])?.first as? [Any] ?? []
        return rows.compactMap { row in
            // Each row: (timestamp, [arguments as variants {type, data}]).
            guard let pair = row as? [Any], pair.count == 2, let args = pair[1] as? [[String: Any]], args.count == 8 else { return nil }
            return (args[0]["data"] as? String ?? "", args[1]["data"] as? Int ?? -1, args[3]["data"] as? String ?? "",
                    args[5]["data"] as? [String] ?? [])
        }
    }

    /// The template numbers new notifications 1, 2, … and answers a replacement with the id it replaces.
    func idOfNotify(at index: Int) throws -> UInt32 {
        var next: UInt32 = 1
        var id: UInt32 = 0
        for (i, call) in try notifies().enumerated() where i <= index {
            if call.replaces != 0 { id = UInt32(call.replaces) } else { id = next; next += 1 }
        }
        return id
    }

    /// A person's click on the button `key` of notification `id`: ActionInvoked(id, key) from the server.
    func click(_ id: UInt32, _ key: String) throws {
        _ = try mock("EmitSignal", "sssav", ["org.freedesktop.Notifications", "ActionInvoked", "us", "2", "u", "\(id)", "s", key])
    }
}

/// A name owned on the rig's bus outside the sandbox by python3-dbusmock (an object with no methods of its own;
/// org.freedesktop.DBus.Peer answers), for what the sandbox may and may not reach.
final class MockName: @unchecked Sendable {
    private let process: Process
    private let name: String
    private let path: String
    private let environment: [String: String]
    private var added: Set<String> = []

    /// `name` owning an object at `path` (by default the name as a path) whose interface is `name` too.
    init(_ name: String, path: String? = nil, environment: [String: String]) throws {
        self.name = name
        self.path = path ?? "/" + name.replacingOccurrences(of: ".", with: "/")
        self.environment = environment
        process = try startOwning(name, ["/usr/bin/python3", "-m", "dbusmock", "--session", name, self.path, name], environment: environment)
    }

    func stop() { Subprocess.kill9(process) }

    /// Sets a property of the object's interface (busctl's type and value words, e.g. "b", "false" or
    /// "as", "1", "eyesight"), announced with PropertiesChanged carrying the value, as GJS's
    /// `emit_property_changed` sends it.
    /// (The mock's object exists before its properties do: a new one is announced too, since a reader
    /// that came first found it missing.)
    func set(_ property: String, _ type: String, _ value: [String]) throws {
        if added.insert(property).inserted { try mock(["AddProperty", "ssv", name, property, type] + value) }
        try mock(["UpdateProperties", "sa{sv}", name, "1", property, type] + value)
    }

    private func mock(_ args: [String]) throws {
        let r = try Subprocess.run(["busctl", "--user", "call", name, path, "org.freedesktop.DBus.Mock"] + args, environment: environment)
        guard r.status == 0 else { throw HarnessError("Mock \(args[0]) failed: \(r)") }
    }
}

/// Starts `command` and waits (bounded) until it owns `name` on the bus of `environment`; a program that
/// ends or never takes the name is killed and the test fails with the command named.
func startOwning(_ name: String, _ command: [String], environment: [String: String], timeout: TimeInterval = 10) throws -> Process {
    let process = try Subprocess.start(command, environment: environment)
    let owned = waitUntil(timeout: timeout, interval: 0.05) {
        let r = try? Subprocess.run(["busctl", "--user", "call", "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                     "org.freedesktop.DBus", "NameHasOwner", "s", name], environment: environment)
        return r?.stdout == "b true\n" || !process.isRunning
    }
    guard owned, process.isRunning else {
        Subprocess.kill9(process)
        throw HarnessError("\(command.joined(separator: " ")) did not take \(name)")
    }
    return process
}
