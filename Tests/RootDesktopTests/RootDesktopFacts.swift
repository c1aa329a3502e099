import Foundation
import TestSupport

/// What the root tests read about the package and the session.
enum RootDesktopFacts {
    /// The release's version of the package: its control file's (dpkg-deb on the host), without Debian's revision.
    static func packageVersion() throws -> String {
        let r = try Subprocess.run(["dpkg-deb", "--field", try DesktopRoot.package(), "Version"])
        guard r.status == 0 else { throw HarnessError("dpkg-deb --field: \(r)") }
        let version = r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        // The package's version is the release's with Debian's revision (0.4.0-1); icared tells the release's.
        guard let dash = version.lastIndex(of: "-") else { return version }
        return String(version[..<dash])
    }

    /// The program behind a bus name: its process (as the root numbers it), its executable read inside.
    /// The words of the entry `name` of `Capabilities` as gdbus prints it (`(<[('reminder-buttons', 'works', '…'), …]>,)`).
    static func capabilityWords(_ printed: String, _ name: String) -> String {
        guard let start = printed.range(of: "('\(name)', '") else { return "" }
        let rest = printed[start.upperBound...]
        guard let state = rest.range(of: "', '") else { return "" }
        let words = rest[state.upperBound...]
        return String(words[..<(words.range(of: "')")?.lowerBound ?? words.endIndex)])
    }

    static func program(owning name: String, in session: DesktopRootSession) throws -> String {
        let r = try session.run(["readlink", "/proc/\(try pid(owning: name, in: session))/exe"])
        guard r.status == 0 else { throw HarnessError("readlink /proc/…/exe inside: \(r)") }
        return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The process id of the owner of `name`, as the bus says.
    static func pid(owning name: String, in session: DesktopRootSession) throws -> String {
        let answer = try session.call("org.freedesktop.DBus", "/org/freedesktop/DBus",
                                      "org.freedesktop.DBus.GetConnectionUnixProcessID", [name])
        // "(uint32 1234,)"
        return String((answer.split(separator: " ").last ?? "").filter(\.isNumber))
    }

    /// Whether the owner of `name` runs inside its unit's sandbox: a seccomp filter, no capabilities
    /// (scripts/unit-sandbox, docs/as-installed.md).
    static func runsAsInstalled(owning name: String, in session: DesktopRootSession) throws -> Bool {
        let r = try session.run(["grep", "-E", "^(Seccomp|CapBnd):", "/proc/\(try pid(owning: name, in: session))/status"])
        return r.stdout.contains("Seccomp:\t2") && r.stdout.contains("CapBnd:\t0000000000000000")
    }

    /// Reads `read` until it gives exactly one thing (bounded); that thing, or nil.
    static func waitForOne<T>(timeout: TimeInterval, _ read: () throws -> [T]) throws -> T? {
        try TestSupport.waitForOne(timeout: timeout, interval: 0.3, read, { _ in true }).found
    }
}
