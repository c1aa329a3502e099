import Foundation

/// A Debian 13 (trixie) or Debian testing (forky) root, entered through a
/// mount and PID namespace of its own, for tests of iCare on the desktops
/// people run now (GNOME Shell 48 / 50, Plasma 6.3 / 6.7) on this Debian 12
/// machine. `scripts/desktop-root` makes and reuses the root, installs iCare's
/// .deb (the file `ICARE_DEB` names) with the root's own apt, and starts the
/// namespace; this type drives it. How and why: docs/desktop-facts.md, "GNOME
/// Shell 48 and 50, Plasma 6.3 and 6.7, run here in roots".
///
/// - `work`, a folder of the test's, is bind-mounted at the same path inside:
///   buses, sockets, HOME and logs live there, so host and root name them alike.
/// - Programs run inside as the root's ordinary user (uid 1000), each leading
///   a process group of its own, their output in a log in `work`.
/// - The namespace's init ends everything when `stop()` kills it, and also
///   when this test process dies: it reads a pipe only this process holds.
public final class DesktopRoot: @unchecked Sendable {
    public enum Release: String, Sendable, CaseIterable, CustomStringConvertible {
        case trixie, forky
        public var description: String { rawValue }
        /// The GNOME Shell and Plasma versions the mirror's snapshot has.
        public var gnomeShell: String { self == .trixie ? "48.7" : "50.5" }
        public var plasma: String { self == .trixie ? "6.3.6" : "6.7.4" }
    }

    public static let script = InstalledICare.repo.appendingPathComponent("scripts/desktop-root").path
    /// The ordinary user inside (made by the script).
    public static let uid: UInt32 = 1000
    public let release: Release
    public let work: URL
    /// The namespace's init, as the host numbers it.
    public let pid: Int32
    /// The namespace's PID and mount namespaces (`pid:[…]`, `mnt:[…]`), to find what is left of it.
    public let namespaces: [String]
    private let lifeline: Pipe
    private var groups: [Process] = []
    private let lock = NSLock()
    private var stopped = false

    /// Whether the namespace has a network namespace of its own with only `lo` (`start --net-lo`).
    public let loopbackOnly: Bool

    /// Makes (or reuses) the root, installs the package, starts the namespace with a new `work` folder.
    /// `loopbackOnly`: everything inside runs in a network namespace of its own with only `lo`, up
    /// (for programs that broadcast, such as kdeconnectd: nothing sent inside leaves the machine).
    public init(_ release: Release, loopbackOnly: Bool = false) throws {
        self.release = release
        self.loopbackOnly = loopbackOnly
        try Self.prepare(release)
        work = URL(fileURLWithPath: "/tmp/icare-root-\(release)-\(UUID().uuidString.prefix(8))")
        let fm = FileManager.default
        try fm.createDirectory(at: work, withIntermediateDirectories: true)
        try fm.setAttributes([.ownerAccountID: Self.uid, .groupOwnerAccountID: Self.uid], ofItemAtPath: work.path)
        lifeline = Pipe()
        let out = Pipe()
        // Only the script may inherit these (a program started meanwhile by another test must not
        // hold the lifeline open); dup2 onto its 0, 1 and 2 clears the flag there.
        for fd in [lifeline.fileHandleForReading, lifeline.fileHandleForWriting, out.fileHandleForReading, out.fileHandleForWriting] {
            _ = fcntl(fd.fileDescriptor, F_SETFD, FD_CLOEXEC)
        }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Self.script)
        p.arguments = ["start", release.rawValue, work.path, "--until-eof"] + (loopbackOnly ? ["--net-lo"] : [])
        p.environment = Self.hostEnvironment
        p.standardInput = lifeline
        p.standardOutput = out
        p.standardError = out
        try Subprocess.launch(p)
        // The first line, not the whole output: the namespace may have inherited a copy of the pipe.
        let answer = Subprocess.firstLine(of: out, timeout: 30) ?? ""
        p.waitUntilExit()
        guard p.terminationStatus == 0, let pid = Int32(answer.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            try? lifeline.fileHandleForWriting.close()
            try? fm.removeItem(at: work)
            throw HarnessError("scripts/desktop-root start \(release) failed (status \(p.terminationStatus)): \(answer)")
        }
        self.pid = pid
        namespaces = ["pid", "mnt"].compactMap { try? fm.destinationOfSymbolicLink(atPath: "/proc/\(pid)/ns/\($0)") }
    }

    /// Processes still in the namespace's PID or mount namespace (after `stop()`: none; its mounts live
    /// only as long as its mount namespace has a process).
    public func leftovers() -> [Int32] {
        let fm = FileManager.default
        return ((try? fm.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap(Int32.init).filter { pid in
            ["pid", "mnt"].contains { namespaces.contains((try? fm.destinationOfSymbolicLink(atPath: "/proc/\(pid)/ns/\($0)")) ?? "") }
        }
    }

    /// What the host's tools run with: root's PATH (the script runs debootstrap, unshare, nsenter).
    static var hostEnvironment: [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["PATH"] = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:" + (env["PATH"] ?? "")
        return env
    }

    /// The prefix that runs a command inside as the ordinary user.
    public var asUser: [String] { [Self.script, "exec", String(pid), "--user", "--"] }

    /// An environment for programs inside: a plain PATH and the neutral locale, then `extra`.
    public func inside(_ extra: [String: String]) -> [String: String] {
        ["PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "TERM": "dumb"].merging(extra) { $1 }
    }

    /// Starts `arguments` inside as the user, in a process group of its own, output in `work/log`.
    @discardableResult
    public func start(_ arguments: [String], log: String, environment: [String: String]) throws -> Process {
        let p = try Subprocess.startLogged(asUser + arguments, log: work.appendingPathComponent(log).path,
                                           environment: inside(environment))
        lock.withLock { groups.append(p) }
        return p
    }

    /// The package's `/usr/bin/icared` as installed, with `arguments`: through scripts/unit-sandbox (copied
    /// into `work`), inside the sandbox of the unit the package installed (docs/as-installed.md).
    public func icaredAsInstalled(_ arguments: [String]) throws -> [String] {
        let tools = work.appendingPathComponent("unit-sandbox")
        if !FileManager.default.fileExists(atPath: tools.path) {
            try FileManager.default.createDirectory(at: tools, withIntermediateDirectories: true)
            for name in ["unit-sandbox", "unit_file.py", "unit_seccomp.py"] {
                try FileManager.default.copyItem(atPath: ServiceHarness.repo.appendingPathComponent("scripts/" + name).path,
                                                 toPath: tools.appendingPathComponent(name).path)
            }
        }
        return [tools.appendingPathComponent("unit-sandbox").path, "/usr/lib/systemd/user/icared.service", "--", "/usr/bin/icared"]
            + arguments
    }

    /// Runs `arguments` inside as the user to completion.
    @discardableResult
    public func run(_ arguments: [String], environment: [String: String], timeout: TimeInterval = 30) throws -> ProcessResult {
        try Subprocess.run(asUser + arguments, environment: inside(environment), timeout: timeout)
    }

    /// A folder in `work` owned by the user (made inside, as the user).
    public func folder(_ name: String, mode: String = "755") throws -> URL {
        let url = work.appendingPathComponent(name)
        let r = try run(["mkdir", "-p", "-m", mode, url.path], environment: [:])
        guard r.status == 0 else { throw HarnessError("mkdir \(url.path) inside the \(release) root: \(r)") }
        return url
    }

    /// A log in `work` so far.
    public func log(_ name: String) -> String {
        (try? String(contentsOf: work.appendingPathComponent(name), encoding: .utf8)) ?? ""
    }

    /// Ends every program started inside and the namespace itself (its mounts go with it), and removes `work`.
    public func stop() {
        let (first, started) = lock.withLock { () -> (Bool, [Process]) in
            defer { stopped = true; groups.removeAll() }
            return (!stopped, groups)
        }
        guard first else { return }
        // The namespace first: a program that left its group (Xvfb makes one of its own) still holds the
        // socket by which Foundation learns that the `exec` that started it has ended.
        _ = try? Subprocess.run([Self.script, "stop", String(pid)], environment: Self.hostEnvironment, timeout: 20)
        for p in started.reversed() { Subprocess.killGroup(p) }
        try? lifeline.fileHandleForWriting.close()
        try? FileManager.default.removeItem(at: work)
    }

    deinit { stop() }
}
