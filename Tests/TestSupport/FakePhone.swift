import Foundation

/// The fake Android phone (`fake-phone.py` beside this file) as a running process, shared by
/// `KDEConnectRig` and `GSConnectRig`: both desktops speak KDE Connect's protocol to it. Its output is
/// read on a thread of its own: every packet it received (with its `_received` stamp), the answer to
/// each command, and its events (`event closed`).
public final class FakePhone: @unchecked Sendable {
    public static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("fake-phone.py").path

    private let process: Process
    private let input = Pipe(), output = Pipe()
    private let lock = NSLock()
    private var received: [[String: Any]] = []
    private var answers: [String] = []
    private var answersTaken = 0
    private var events: [String] = []
    private var ready = false
    /// Whether the last `connect` or `disconnect` left the phone connected.
    public private(set) var isConnected = false
    /// The rig's logs, for failure messages.
    private let context: () -> String

    /// Starts `fake-phone.py` through `launcher` (the rig's namespace: its first word is looked up on PATH),
    /// its errors in the file `errors`, and waits (bounded) until it says `ready`.
    init(launcher: [String], deviceId: String, name: String, protocolVersion: Int, state: URL, errors: String,
         arguments: [String] = [], environment: [String: String], timeout: TimeInterval, context: @escaping () -> String) throws {
        guard FileManager.default.fileExists(atPath: Self.script) else { throw HarnessError("the fake phone is missing at \(Self.script)") }
        guard let program = launcher.first else { throw HarnessError("the fake phone needs a launcher") }
        self.context = context
        process = Process()
        process.executableURL = URL(fileURLWithPath: try Subprocess.which(program))
        process.arguments = Array(launcher.dropFirst()) + ["/usr/bin/python3", Self.script, deviceId, "--name", name,
                                                          "--protocol", "\(protocolVersion)", "--state", state.path] + arguments
        process.environment = environment
        process.standardInput = input
        process.standardOutput = output
        _ = FileManager.default.createFile(atPath: errors, contents: nil)
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errors))
        try Subprocess.launch(process)
        Subprocess.readLines(of: output.fileHandleForReading) { [weak self] line, _ in
            self?.take(line)
            return true
        }
        guard waitUntil(timeout: timeout, interval: 0.05, { lock.withLock { ready } || !process.isRunning }), process.isRunning else {
            stop()
            throw HarnessError("the fake phone did not start\n\(context())")
        }
    }

    deinit { stop() }

    public var isRunning: Bool { process.isRunning }

    /// One line of the phone's output: a packet, an answer, an event.
    private func take(_ line: String) {
        lock.withLock {
            if line.hasPrefix("{") {
                if let packet = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] { received.append(packet) }
            } else if line == "ready" {
                ready = true
            } else if line.hasPrefix("ok") || line.hasPrefix("error") {
                answers.append(line)
            } else if line.hasPrefix("event ") {
                events.append(line)
            }
        }
    }

    /// Sends one command (`connect`, `pair`, `unpair`, `disconnect`, `send …`) and waits for its answer; an
    /// `error …` answer throws.
    func command(_ line: String, timeout: TimeInterval) throws {
        guard process.isRunning else { throw HarnessError("the fake phone is gone\n\(context())") }
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
        var answer: String?
        let answered = waitUntil(timeout: timeout, interval: 0.01) {
            lock.withLock {
                if answers.count > answersTaken { answer = answers[answersTaken]; answersTaken += 1 }
            }
            return answer != nil
        }
        guard answered, let answer else { throw HarnessError("the fake phone did not answer '\(line)' in \(Int(timeout)) s\n\(context())") }
        guard answer.hasPrefix("ok") else { throw HarnessError("the fake phone answered '\(answer)' to '\(line)'\n\(context())") }
        if line == "connect" { isConnected = true }
        if line == "disconnect" { isConnected = false }
    }

    /// How many events (`event closed`: the desktop closed the connection) the phone has reported.
    var eventCount: Int { lock.withLock { events.count } }

    /// The packets received so far whose `type` is `type`, each whole (`id`, `type`, `body`, `_received`).
    public func packets(type: String) -> [[String: Any]] {
        lock.withLock { received.filter { $0["type"] as? String == type } }
    }

    /// Waits (bounded) until at least `count` packets of `type` came; returns them all.
    @discardableResult
    public func waitForPackets(type: String, count: Int, timeout: TimeInterval) throws -> [[String: Any]] {
        var seen: [[String: Any]] = []
        guard waitUntil(timeout: timeout, interval: 0.02, { seen = packets(type: type); return seen.count >= count }) else {
            throw HarnessError("the fake phone received \(seen.count) \(type) packet(s) in \(Int(timeout)) s, not \(count); all it received: \(summary())\n\(context())")
        }
        return seen
    }

    /// A packet's body (empty when it has none).
    /// The Run command list in the last `kdeconnect.runcommand` packet of `packets` (its `commandList` is a
    /// JSON text: `{key: {name, command}}`), nil when there is none or it does not read.
    public static func runCommandList(in packets: [[String: Any]]) -> [String: [String: String]]? {
        guard let packet = packets.last, let text = body(packet)["commandList"] as? String else { return nil }
        return try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: [String: String]]
    }

    public static func body(_ packet: [String: Any]) -> [String: Any] { packet["body"] as? [String: Any] ?? [:] }

    /// Every packet received, one `type {body}` each, for failure messages.
    func summary() -> String {
        lock.withLock {
            received.map { packet in
                let body = (try? JSONSerialization.data(withJSONObject: Self.body(packet), options: [.sortedKeys])).map { String(decoding: $0, as: UTF8.self) } ?? "?"
                return "\(packet["type"] ?? "?") \(body)"
            }.joined(separator: "; ")
        }
    }

    /// Closes its input (it quits on end of input), then kills its group.
    func stop() {
        try? input.fileHandleForWriting.close()
        _ = waitUntil(timeout: 2, interval: 0.02) { !process.isRunning }
        Subprocess.killGroup(process)
    }
}

/// A break taken at the desk in the phone suites, and which of the phone's packets belong to it. Those
/// suites run icared 300 times faster, so the next reminder follows the end of a break by one scaled
/// interval: a test that waited for `waiting` could miss that short state on a loaded machine (a CI run
/// did, and counted the next reminder's alert as this break's). The next reminder cannot go out before
/// the break's length and one scaled interval have passed since the click, however slowly the test
/// looks: what came before that instant belongs to this break.
public struct BreakWindow: Sendable {
    /// Seconds since the epoch, the clock of the fake phone's `_received` and the recorders' times.
    public let cutoff: Double

    /// Call it just before the click that starts the break.
    public init(breakSeconds: Double, scaledIntervalSeconds: Double) {
        cutoff = Date().timeIntervalSince1970 + breakSeconds + scaledIntervalSeconds
    }

    /// Whether something that happened at `time` (s since the epoch) belongs to this break's cycle.
    public func contains(_ time: Double) -> Bool { time < cutoff }

    /// The phone's packets received during this break's cycle.
    public func ofThisBreak(_ packets: [[String: Any]]) -> [[String: Any]] {
        packets.filter { contains(($0["_received"] as? NSNumber)?.doubleValue ?? 0) }
    }
}
