import Foundation

/// The session bus of a `HeadlessPlasma`, as its clients see it (busctl).
extension HeadlessPlasma {
    /// Whether `name` has an owner on the session bus now.
    public func nameHasOwner(_ name: String) throws -> Bool {
        try busctl(["call", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner", "s", name])
            .stdout == "b true\n"
    }

    /// Waits (bounded) until `name` has an owner; whether it came.
    public func waitForName(_ name: String, timeout: TimeInterval = 10) throws -> Bool {
        try waitUntil(timeout: timeout, interval: 0.05) { try nameHasOwner(name) }
    }

    /// The names on the session bus now.
    public func names() throws -> [String] {
        let r = try busctl(["--json=short", "call", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "ListNames"])
        guard let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any],
              let data = json["data"] as? [[String]], let names = data.first else { throw HarnessError("ListNames: \(r)") }
        return names
    }

    /// Runs `busctl --user ARGS` on the session bus.
    @discardableResult
    public func busctl(_ arguments: [String]) throws -> ProcessResult {
        try Subprocess.run(["busctl", "--user"] + arguments, environment: environment)
    }
}
