import Foundation

/// A program a desktop's launcher started inside a `DesktopRoot`, as the root's `/proc` has it: its
/// executable, its parent's name (the launcher's process, when it started it itself) and its environment
/// (GIO, which GNOME Shell launches with, names the desktop entry there: `GIO_LAUNCHED_DESKTOP_FILE`).
public struct LaunchedProcess: Sendable, CustomStringConvertible {
    /// The PID as the root's namespace numbers it.
    public let pid: Int
    public let executable: String, parent: String
    public let environment: [String: String]
    public var description: String {
        "pid \(pid) \(executable), child of \(parent), GIO_LAUNCHED_DESKTOP_FILE=\(environment["GIO_LAUNCHED_DESKTOP_FILE"] ?? "(unset)")"
    }
}

extension DesktopRootSession {
    /// The `[Desktop Entry]` group of the installed `/usr/share/applications/ID.desktop` in the root, its
    /// unlocalised keys only (`Name`, `Icon`, `Exec`, …), as the root's launchers read it.
    public func desktopEntry(_ id: String) throws -> [String: String] {
        let r = try run(["cat", "/usr/share/applications/\(id).desktop"])
        guard r.status == 0 else { throw HarnessError("no desktop entry \(id) installed in the \(root.release) root: \(r)") }
        var entry: [String: String] = [:], group = ""
        for line in r.stdout.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) where !line.hasPrefix("#") {
            if line.hasPrefix("[") { group = line; continue }
            guard group == "[Desktop Entry]", let eq = line.firstIndex(of: "=") else { continue }
            let key = line[..<eq].trimmingCharacters(in: .whitespaces)
            if !key.contains("[") { entry[key] = String(line[line.index(after: eq)...]) }
        }
        return entry
    }

    /// The process that owns `name` on the session bus (the bus inside the root numbers it), read from `/proc`.
    public func owner(of name: String) throws -> LaunchedProcess {
        let answer = try call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus.GetConnectionUnixProcessID", [name])
        guard let pid = Int((answer.split(separator: " ").last ?? "").filter(\.isNumber)) else {
            throw HarnessError("no PID for \(name): \(answer)")
        }
        return try process(pid)
    }

    /// Process `pid` of the root (its own numbering): executable, parent's name, environment.
    public func process(_ pid: Int) throws -> LaunchedProcess {
        let script = #"readlink /proc/$0/exe && ppid=$(sed -n 's/^PPid:\s*//p' /proc/$0/status) && cat /proc/$ppid/comm && tr '\0' '\n' </proc/$0/environ"#
        let r = try run(["sh", "-c", script, String(pid)])
        let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard r.status == 0, lines.count >= 2 else { throw HarnessError("reading /proc/\(pid) in the \(root.release) root: \(r)") }
        var environment: [String: String] = [:]
        for line in lines.dropFirst(2) {
            if let eq = line.firstIndex(of: "=") { environment[String(line[..<eq])] = String(line[line.index(after: eq)...]) }
        }
        return LaunchedProcess(pid: pid, executable: lines[0], parent: lines[1], environment: environment)
    }
}
