import Foundation

extension KDEConnectRig.Elsewhere {
    /// kdeconnectd as the root's user inside `root` (started with `loopbackOnly`: the namespace's network is
    /// `lo` only, which the rig checks), its HOME and logs in `root.work/folder`; the phone is the host's
    /// python3 in the root's network namespace.
    public static func inside(_ root: DesktopRoot, folder: String = "kdeconnect") throws -> Self {
        guard root.loopbackOnly else { throw HarnessError("kdeconnectd broadcasts: start the \(root.release) root with loopbackOnly") }
        // Debian 13 and testing install it in /usr/bin (Debian 12: libexec).
        let inside = (["/usr/bin/kdeconnectd"] + KDEConnectRig.daemonCandidates).first { path in
            (try? root.run(["test", "-x", path], environment: [:]).status) == 0
        }
        guard let inside else { throw HarnessError("kdeconnectd is not installed in the \(root.release) root (the kdeconnect package; scripts/desktop-root)") }
        return Self(namespacePID: root.pid, launcher: root.asUser, daemonProgram: inside,
                    directory: root.work.appendingPathComponent(folder), owner: DesktopRoot.uid)
    }
}

/// A host program run in the network namespace of a process (a `DesktopRoot`'s init; nil: the test's own), whose
/// output lines are recorded with the time each arrived; its standard input is a pipe held here (closed by `stop`).
public final class NamespacedLines: @unchecked Sendable {
    private let process: Process
    private let input = Pipe(), output = Pipe()
    private let lock = NSLock()
    private var lines: [(time: Double, text: String)] = []

    /// `arguments` run by `nsenter --target PID --net`, both dying with this test process (PR_SET_PDEATHSIG).
    public init(_ arguments: [String], networkOf pid: Int32?, environment: [String: String], errors: URL) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try Subprocess.which("setpriv"))
        let enter = pid.map { ["nsenter", "--target", "\($0)", "--net", "--", "setpriv", "--pdeathsig", "KILL", "--"] } ?? []
        p.arguments = ["--pdeathsig", "KILL", "--"] + enter + arguments
        p.environment = environment
        p.standardInput = input
        p.standardOutput = output
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        p.standardError = try FileHandle(forWritingTo: errors)
        try Subprocess.launch(p)
        process = p
        Subprocess.readLines(of: output.fileHandleForReading) { [weak self] line, now in
            guard let self else { return false }
            self.lock.withLock { self.lines.append((now, line)) }
            return true
        }
    }

    public var isRunning: Bool { process.isRunning }

    /// The lines so far, each with the time (s since the epoch) it was read here.
    public var all: [(time: Double, text: String)] { lock.withLock { lines } }

    public func stop() {
        try? input.fileHandleForWriting.close()
        _ = waitUntil(timeout: 1, interval: 0.02) { !process.isRunning }
        Subprocess.killGroup(process)
    }

    deinit { stop() }
}

/// One `Notify` (or other call) the recorder (`notification-recorder.py`) was sent.
public struct RecordedNotification: @unchecked Sendable {
    public let fields: [String: Any]
    public var method: String { fields["method"] as? String ?? "" }
    public var time: Double { fields["time"] as? Double ?? 0 }
    public var id: Int { fields["id"] as? Int ?? 0 }
    public var app: String { fields["app"] as? String ?? "" }
    public var summary: String { fields["summary"] as? String ?? "" }
    public var actions: [String] { fields["actions"] as? [String] ?? [] }
    public var hints: [String: String] { fields["hints"] as? [String: String] ?? [:] }
    public var isICare: Bool { app == "iCare" }
}

/// A notification server on a bus reachable by address (a root's session bus), run by the host's python3-gi
/// in the root's network namespace, that records every call (`notification-recorder.py` beside this file).
public final class NotificationRecorder: @unchecked Sendable {
    private let lines: NamespacedLines
    private let busAddress: String
    public static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("notification-recorder.py").path

    public init(busAddress: String, networkOf pid: Int32?, errors: URL) throws {
        self.busAddress = busAddress
        lines = try NamespacedLines(["/usr/bin/python3", Self.script], networkOf: pid,
                                    environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "DBUS_SESSION_BUS_ADDRESS": busAddress],
                                    errors: errors)
        guard waitUntil(timeout: 10, interval: 0.02, { self.lines.all.contains { $0.text == "ready" } || !self.lines.isRunning }),
              lines.isRunning else {
            let why = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
            lines.stop()
            throw HarnessError("the notification recorder did not start: \(why)")
        }
    }

    public var calls: [RecordedNotification] {
        lines.all.compactMap { line in
            guard line.text.hasPrefix("{"),
                  let fields = (try? JSONSerialization.jsonObject(with: Data(line.text.utf8))) as? [String: Any] else { return nil }
            return RecordedNotification(fields: fields)
        }
    }

    public var iCareNotifies: [RecordedNotification] { calls.filter { $0.method == "Notify" && $0.isICare } }

    /// A click on notification `id`'s action `key`, as a server reports one: `ActivationToken` first (when
    /// `activationToken` is not empty), then `ActionInvoked`, both from the server's own connection.
    public func click(_ id: UInt32, _ key: String, activationToken: String = "") throws {
        let r = try Subprocess.run(["busctl", "--address=\(busAddress)", "call", "org.freedesktop.Notifications", "/org/icare/test/Recorder",
                                    "org.icare.test.Recorder", "Click", "uss", "\(id)", key, activationToken], timeout: 10)
        guard r.status == 0 else { throw HarnessError("the recorder's Click failed: \(r)") }
    }

    public var dump: String {
        calls.map { "\($0.method) \($0.id) \($0.summary) \($0.actions) \($0.hints.keys.sorted())" }.joined(separator: "\n")
    }

    public func stop() { lines.stop() }
}

/// `dbus-monitor` on a bus for one signal, recording the time dbus-monitor stamped on each (`signal time=…`).
public final class SignalRecorder: @unchecked Sendable {
    private let lines: NamespacedLines

    public init(busAddress: String, interface: String, member: String, networkOf pid: Int32?, errors: URL) throws {
        lines = try NamespacedLines(["dbus-monitor", "--address", busAddress, "type='signal',interface='\(interface)',member='\(member)'"],
                                    networkOf: pid, environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"], errors: errors)
        // dbus-monitor's own NameAcquired signal (to it alone) says it is listening.
        guard waitUntil(timeout: 10, interval: 0.02, { self.lines.all.contains { $0.text.contains("NameAcquired") || $0.text.contains("NameLost") } || !self.lines.isRunning }) else {
            lines.stop()
            throw HarnessError("dbus-monitor did not start on \(busAddress)")
        }
    }

    /// When each signal was seen (s since the epoch, dbus-monitor's own stamp).
    public func times(member: String) -> [Double] {
        lines.all.compactMap { line in
            guard line.text.hasPrefix("signal "), line.text.contains("member=\(member)"),
                  let range = line.text.range(of: "time=") else { return nil }
            return Double(line.text[range.upperBound...].prefix { !$0.isWhitespace })
        }
    }

    public func stop() { lines.stop() }
}
