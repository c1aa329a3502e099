import Foundation

/// A real sway on the headless wlroots backend, for tests of the Wayland
/// idle watch. sway refuses to run as root, so under root it runs as
/// `nobody` (through `setpriv`, no capabilities) with a runtime folder of
/// its own (0700, owned by that user); a root client such as `icared` in the
/// tests reaches its socket by absolute path in `WAYLAND_DISPLAY`. Under
/// another user it runs as that user. It has no input devices of its own:
/// `wtype` (a virtual keyboard) and `VirtualPointer` make input. Killed with
/// SIGKILL at `stop`.
public final class HeadlessSway: @unchecked Sendable {
    /// The folder holding the config, the log and the runtime folder.
    public let directory: URL
    /// sway's XDG_RUNTIME_DIR.
    public let runtimeDirectory: String
    /// The socket's absolute path: the value for `WAYLAND_DISPLAY`.
    public private(set) var socket = ""
    private var process: Process?
    private let logPath: String

    /// Starts sway and waits (bounded) for its socket; throws with sway's log when it does not come.
    public init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("icare-sway-\(UUID().uuidString)")
        runtimeDirectory = directory.appendingPathComponent("run").path
        logPath = directory.appendingPathComponent("sway.log").path
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o755])
        try FileManager.default.createDirectory(atPath: runtimeDirectory, withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o700])
        // A minimal config: no bar, no terminal, one headless output.
        let config = directory.appendingPathComponent("config").path
        try "output HEADLESS-1 resolution 640x480\n".write(toFile: config, atomically: true, encoding: .utf8)
        chmod(config, 0o644)
        var command = [try Subprocess.which("sway"), "-c", config]
        if getuid() == 0 {
            guard let pw = getpwnam("nobody") else { throw HarnessError("no user 'nobody' to run sway as") }
            guard chown(runtimeDirectory, pw.pointee.pw_uid, pw.pointee.pw_gid) == 0 else {
                throw HarnessError("cannot hand \(runtimeDirectory) to nobody: errno \(errno)")
            }
            command = [try Subprocess.which("setpriv"), "--reuid=nobody", "--regid=\(pw.pointee.pw_gid)", "--clear-groups",
                       "--inh-caps=-all"] + command
        }
        guard FileManager.default.createFile(atPath: logPath, contents: nil) else { throw HarnessError("cannot create \(logPath)") }
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        let p = Process()
        p.executableURL = URL(fileURLWithPath: command[0])
        p.arguments = Array(command.dropFirst())
        var env = ProcessInfo.processInfo.environment.filter { !["WAYLAND_DISPLAY", "DISPLAY", "SWAYSOCK", "DBUS_SESSION_BUS_ADDRESS"].contains($0.key) }
        env["XDG_RUNTIME_DIR"] = runtimeDirectory
        env["HOME"] = directory.path
        env["WLR_BACKENDS"] = "headless"
        env["WLR_LIBINPUT_NO_DEVICES"] = "1"
        env["WLR_RENDERER"] = "pixman"
        p.environment = env
        p.standardInput = FileHandle.nullDevice
        p.standardOutput = log
        p.standardError = log
        try Subprocess.launch(p)
        process = p
        let up = waitUntil(timeout: 15, interval: 0.05) {
            if let name = self.socketName() { self.socket = self.runtimeDirectory + "/" + name }
            return !self.socket.isEmpty || !p.isRunning
        }
        guard up, p.isRunning else {
            stop()
            throw HarnessError("headless sway did not start (\(command.joined(separator: " "))); its log:\n\(self.log)")
        }
        if getuid() == 0 {
            // On a desktop sway and icared are one user. Here icared is root without capabilities (its
            // unit's sandbox), so sway's socket is opened to it as to that one user.
            chmod(runtimeDirectory, 0o711)
            chmod(socket, 0o777)
        }
    }

    /// `wayland-N`, once sway has made it (its lock file comes first).
    private func socketName() -> String? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: runtimeDirectory)) ?? []
        return names.first { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") }
    }

    /// Whether sway is still running.
    public var isRunning: Bool { process?.isRunning ?? false }

    /// sway's log so far.
    public var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// The app id (Wayland) or class (X11) of the window that has sway's
    /// focus, from its IPC (`swaymsg -t get_tree`); nil when no window has it.
    /// The keyboard goes where this says: sway sends the window
    /// `wl_keyboard.enter` as it focuses it.
    public func focusedApp() -> String? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: runtimeDirectory)) ?? []
        guard let ipc = names.first(where: { $0.hasPrefix("sway-ipc.") && $0.hasSuffix(".sock") }),
              let r = try? Subprocess.run(["swaymsg", "-s", runtimeDirectory + "/" + ipc, "-r", "-t", "get_tree"], timeout: 10),
              r.status == 0, let tree = try? JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) else { return nil }
        func focused(_ node: Any) -> [String: Any]? {
            guard let node = node as? [String: Any] else { return nil }
            if node["focused"] as? Bool == true, node["pid"] != nil { return node }
            for key in ["nodes", "floating_nodes"] {
                for child in node[key] as? [Any] ?? [] { if let hit = focused(child) { return hit } }
            }
            return nil
        }
        guard let window = focused(tree) else { return nil }
        return window["app_id"] as? String ?? (window["window_properties"] as? [String: Any])?["class"] as? String
    }

    /// Types `text` with `wtype` (a virtual keyboard: real input for the compositor).
    public func type(_ text: String) throws {
        let r = try Subprocess.run(["wtype", text], environment: ["WAYLAND_DISPLAY": socket], timeout: 10)
        guard r.status == 0 else { throw HarnessError("wtype failed: \(r)") }
    }

    /// Kills sway (SIGKILL: a crash, or the end of the session) and waits for it.
    public func kill9() {
        if let p = process { Subprocess.kill9(p) }
        process = nil
    }

    public func stop() {
        kill9()
        try? FileManager.default.removeItem(at: directory)
    }

    deinit { stop() }
}
