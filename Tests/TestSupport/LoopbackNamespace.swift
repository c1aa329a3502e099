import Foundation

/// A network namespace with only `lo` up, which is also a PID namespace, for the phone rigs: KDE Connect
/// and GSConnect announce themselves on every network they see, and nothing may leave the machine.
/// Its first process is `sh` as PID 1, ending when its standard input closes (and when `unshare` dies:
/// `--kill-child`), and the kernel ends everything in it with it. Or another's namespace, joined and
/// checked (a `DesktopRoot` started with `loopbackOnly`).
final class LoopbackNamespace: @unchecked Sendable {
    /// A process in the namespace (its first one when the namespace is ours).
    let pid: Int32
    /// What `ip -o link` listed there (`["lo"]`).
    let links: [String]
    private let holder: Process?
    private let holderInput = Pipe(), holderOutput = Pipe()

    /// A new namespace, started with `environment`.
    init(environment: [String: String]) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try Subprocess.which("setpriv"))
        p.arguments = ["--pdeathsig", "KILL", "--", "unshare", "--net", "--pid", "--fork", "--kill-child", "--",
                       "sh", "-c", "ip link set lo up || exit 1; echo up; read _"]
        p.environment = environment
        p.standardInput = holderInput
        p.standardOutput = holderOutput
        p.standardError = FileHandle.nullDevice
        try Subprocess.launch(p)
        holder = p
        guard Subprocess.firstLine(of: holderOutput, timeout: 10) == "up" else {
            Subprocess.killGroup(p)
            throw HarnessError("the network namespace did not come up (unshare --net --pid, ip link set lo up; root or user namespaces needed)")
        }
        let parent = p.processIdentifier
        let children = (try? String(contentsOfFile: "/proc/\(parent)/task/\(parent)/children", encoding: .utf8)) ?? ""
        guard let first = children.split(separator: " ").first.flatMap({ Int32($0) }) else {
            Subprocess.killGroup(p)
            throw HarnessError("cannot find the namespace's first process (/proc/\(parent)/task/\(parent)/children: '\(children)')")
        }
        pid = first
        links = try Self.loopbackOnly(first)
    }

    /// Another's namespace, by one of its processes: checked to have `lo` only.
    init(joining pid: Int32) throws {
        self.pid = pid
        holder = nil
        links = try Self.loopbackOnly(pid)
    }

    private static func loopbackOnly(_ pid: Int32) throws -> [String] {
        let r = try Subprocess.run(["nsenter", "--target", "\(pid)", "--net", "--", "ip", "-o", "link"])
        let names = r.stdout.split(separator: "\n").compactMap { $0.split(separator: ":").dropFirst().first?.trimmingCharacters(in: .whitespaces) }
        guard r.status == 0, names == ["lo"] else { throw HarnessError("the rig's network namespace is not lo only: \(r)") }
        return names
    }

    /// What runs a program in the namespace (network and PID), dying with the process that started it:
    /// `nsenter` forks into the PID namespace, so the program's own death signal follows `nsenter`.
    var enter: [String] {
        ["setpriv", "--pdeathsig", "KILL", "--", "nsenter", "--target", "\(pid)", "--net", "--pid", "--",
         "setpriv", "--pdeathsig", "KILL", "--"]
    }

    /// Ends a namespace of ours, and waits (bounded) until its first process is gone; one joined is left alone.
    func stop() {
        guard let holder else { return }
        try? holderInput.fileHandleForWriting.close()
        Subprocess.killGroup(holder)
        _ = waitUntil(timeout: 5, interval: 0.02) { !Self.isAlive(self.pid) }
    }

    /// Whether `pid` runs: there and not a zombie (the namespace's first process, once killed, waits as a
    /// zombie until whoever inherited it reaps it; it has ended all the same, and its namespace with it).
    static func isAlive(_ pid: Int32) -> Bool {
        guard kill(pid, 0) == 0, let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        return stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).first != "Z"
    }
}

/// What both phone rigs ask of the desktop's bus.
enum PhoneRigBus {
    static func nameHasOwner(_ name: String, busAddress: String) -> Bool {
        let r = try? Subprocess.run(["busctl", "--user", "call", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                     "NameHasOwner", "s", name], environment: ["DBUS_SESSION_BUS_ADDRESS": busAddress], timeout: 5)
        return r?.stdout == "b true\n"
    }

    /// python3-dbusmock's notification server, started when nothing owns `org.freedesktop.Notifications`
    /// (KDE Connect and GSConnect only watch `Notify` calls: a server must answer them); nil when one runs.
    static func notificationServerIfNone(busAddress: String, environment: [String: String], log: String,
                                         timeout: TimeInterval) throws -> Process? {
        if nameHasOwner("org.freedesktop.Notifications", busAddress: busAddress) { return nil }
        let probe = try Subprocess.run(["/usr/bin/python3", "-c", "import dbusmock"])
        guard probe.status == 0 else { throw HarnessError("python3-dbusmock is not installed (run scripts/deps.sh --test): \(probe.stderr)") }
        let server = try Subprocess.startLogged(
            ["setpriv", "--pdeathsig", "KILL", "--", "/usr/bin/python3", "-m", "dbusmock", "--session", "-t", "notification_daemon"],
            log: log, environment: environment)
        let owned = waitUntil(timeout: timeout, interval: 0.05) {
            nameHasOwner("org.freedesktop.Notifications", busAddress: busAddress) || !server.isRunning
        }
        guard owned, server.isRunning else {
            Subprocess.killGroup(server)
            throw HarnessError("python3 -m dbusmock -t notification_daemon did not take org.freedesktop.Notifications")
        }
        return server
    }
}
