import Foundation
import TestSupport

/// The checkout's root (flatpak/, scripts/).
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()


/// A private session bus whose service folders include the scratch installation's exported D-Bus services, and
/// the folders a session gives flatpak (HOME, XDG_RUNTIME_DIR), all of the test's own. The bus hands its
/// environment to what it activates: `flatpak run` of iCare's icared, as a desktop session's bus would.
final class FlatpakRig: @unchecked Sendable {
    static let appID = "org.icare.Reminder"
    let installation: String
    let home: URL
    let bus: PrivateBus
    let environment: [String: String]

    /// `welcomeSeen: false`: the app has never opened here, so it shows its welcome. `firstStart`: iCare never
    /// ran here at all (no history folder either), so icared's first start shows its notice.
    init(welcomeSeen: Bool = true, firstStart: Bool = false) throws {
        installation = try FlatpakInstallation.folder()
        home = FileManager.default.temporaryDirectory.appendingPathComponent("icare-flatpak-home-\(UUID().uuidString)")
        let runtime = home.appendingPathComponent("runtime")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        // iCare has run in this home before (its history folder is there): no first-start notice in the way.
        let state = home.appendingPathComponent(".var/app/\(Self.appID)/.local/state/icare")
        try FileManager.default.createDirectory(at: firstStart ? state : state.appendingPathComponent("history"),
                                                withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        if welcomeSeen && !firstStart {
            let app = home.appendingPathComponent(".var/app/\(Self.appID)/.local/state/icare-app")
            try FileManager.default.createDirectory(at: app, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            guard FileManager.default.createFile(atPath: app.appendingPathComponent("welcome-seen").path, contents: Data(),
                                                attributes: [.posixPermissions: 0o600]) else {
                throw HarnessError("cannot write welcome-seen in \(app.path)")
            }
        }
        // Nothing of the test runner's session: no display, the XDG folders the rig's own.
        let env = ["HOME": home.path, "XDG_RUNTIME_DIR": runtime.path, "FLATPAK_USER_DIR": installation,
                   "XDG_CONFIG_HOME": home.path + "/.config", "XDG_DATA_HOME": home.path + "/.local/share",
                   "XDG_CACHE_HOME": home.path + "/.cache", "XDG_STATE_HOME": home.path + "/.local/state",
                   "WAYLAND_DISPLAY": "", "DISPLAY": "", "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"]
        bus = try PrivateBus(serviceDirectory: installation + "/exports/share/dbus-1/services", environment: env)
        environment = env.merging(bus.environment) { $1 }
    }

    /// iCare's folders inside the sandbox (flatpak points XDG_STATE_HOME and XDG_CONFIG_HOME here).
    var stateDirectory: URL { home.appendingPathComponent(".var/app/\(Self.appID)/.local/state/icare") }
    /// The app's own state folder inside the sandbox (`welcome-seen`).
    var appStateDirectory: URL { home.appendingPathComponent(".var/app/\(Self.appID)/.local/state/icare-app") }

    /// A reminder that falls due `seconds` after icared starts, as the engine's state file says
    /// (`icare-engine=1`, the format IntegrationTests restore): nothing in the service is bypassed.
    func writeDueState(in seconds: Double) throws {
        let now = Int64(Date().timeIntervalSince1970 * 1_000_000)
        let next = now + Int64(seconds * 1_000_000)
        let text = "icare-engine=1\nclock=\(now)\nphase=waiting\nstart=\(next - 1_200_000_000)\nnext=\(next)\npause=none\n"
        try FileManager.default.createDirectory(at: stateDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try text.write(to: stateDirectory.appendingPathComponent("state"), atomically: true, encoding: .utf8)
    }

    /// busctl --user on the rig's bus, from outside the sandbox.
    func busctl(_ args: [String]) throws -> ProcessResult {
        try Subprocess.run([try Subprocess.which("busctl"), "--user"] + args, environment: environment, timeout: 30)
    }

    /// A property of org.icare.Reminder, read from outside (busctl's `s "waiting"` unquoted to `waiting`).
    func state() throws -> String {
        let r = try busctl(["get-property", Self.appID, "/org/icare/Reminder", Self.appID, "State"])
        guard r.status == 0 else { throw HarnessError("reading State failed: \(r)") }
        return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "s ", with: "")
            .trimmingCharacters(in: CharacterSet(charactersIn: "\""))
    }

    func nameHasOwner(_ name: String) throws -> Bool {
        try busctl(["call", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner", "s", name])
            .stdout == "b true\n"
    }

    /// `flatpak run --command=COMMAND org.icare.Reminder ARGS…` with the rig's environment (the real bwrap and
    /// xdg-dbus-proxy, with the finish-args the app was built with).
    func run(_ command: String, _ args: [String], timeout: TimeInterval = 60) throws -> ProcessResult {
        try Subprocess.run([try Subprocess.which("flatpak"), "run", "--command=\(command)", Self.appID] + args,
                           environment: environment, timeout: timeout)
    }

    /// `flatpak run org.icare.Reminder ARGS…` (its command: the app, icare), left running; `environment` is added
    /// to the rig's (DISPLAY).
    func launch(_ args: [String] = [], environment extra: [String: String]) throws -> Process {
        try Subprocess.start([try Subprocess.which("flatpak"), "run", Self.appID] + args,
                             environment: environment.merging(extra) { $1 })
    }

    func icaredPIDs() -> [Int32] { sandboxedPIDs("icared") }

    /// The host PIDs of the processes named `program` in this rig's sandboxes: each flatpak instance
    /// ($XDG_RUNTIME_DIR/.flatpak/ID/bwrapinfo.json) names the PID of its sandbox's first process;
    /// the program is that process's child.
    func sandboxedPIDs(_ program: String) -> [Int32] {
        let instances = home.appendingPathComponent("runtime/.flatpak")
        let ids = (try? FileManager.default.contentsOfDirectory(atPath: instances.path)) ?? []
        return ids.flatMap { id -> [Int32] in
            guard let data = FileManager.default.contents(atPath: instances.path + "/\(id)/bwrapinfo.json"),
                  let info = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                  let child = info["child-pid"] as? Int else { return [] }
            let children = (try? String(contentsOfFile: "/proc/\(child)/task/\(child)/children", encoding: .utf8)) ?? ""
            return children.split(separator: " ").compactMap { Int32($0) }.filter { pid in
                (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) == program + "\n"
            }
        }
    }

    /// A line of /proc/PID/status (e.g. `VmRSS`), its number.
    static func status(_ pid: Int32, _ field: String) -> Int? {
        let text = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = text.split(separator: "\n").first { $0.hasPrefix(field + ":") }
        return line.flatMap { Int($0.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first ?? "") }
    }

    /// Ends every app and icared of the rig (SIGTERM, then SIGKILL; each sandbox and proxy end with it), then the bus.
    func stop() {
        let pids = sandboxedPIDs("icare") + icaredPIDs()
        for pid in pids { kill(pid, SIGTERM) }
        if !waitUntil(timeout: 5, interval: 0.05, { pids.allSatisfy { kill($0, 0) != 0 } }) {
            for pid in pids { kill(pid, SIGKILL) }
            _ = waitUntil(timeout: 5, interval: 0.05) { pids.allSatisfy { kill($0, 0) != 0 } }
        }
        bus.stop()
        try? FileManager.default.removeItem(at: home)
    }
}

/// Xvfb on a display it chooses (`-displayfd`), for the app's window on X11 (--socket=fallback-x11).
final class VirtualDisplay: @unchecked Sendable {
    let process: Process
    let display: String

    init() throws {
        let xvfb = try Xvfb(width: 1024, height: 768)
        process = xvfb.process
        display = xvfb.display
    }

    /// The visible top-level windows named exactly `name` (xdotool).
    func windows(named name: String) throws -> [String] {
        let r = try Subprocess.run(["xdotool", "search", "--onlyvisible", "--name", "^\(name)$"], environment: ["DISPLAY": display])
        return r.stdout.split(separator: "\n").map(String.init)
    }

    func stop() { Subprocess.kill9(process) }
}
