import Foundation

/// What a finished child process left behind.
public struct ProcessResult: Sendable, CustomStringConvertible {
    public let status: Int32
    public let stdout: String
    public let stderr: String
    public var description: String { "exit \(status)\nstdout: \(stdout)\nstderr: \(stderr)" }
}

/// Failures of the test harness itself (a tool missing, a time-out): tests fail with these, never skip.
public struct HarnessError: Error, CustomStringConvertible {
    public let description: String
    public init(_ d: String) { description = d }
}

/// Runs child processes for tests. Children are killed with SIGKILL: Swift
/// Testing's worker threads block SIGTERM and children inherit that mask.
public enum Subprocess {
    /// The full path of `tool` on PATH; throws (so the test fails) when missing.
    public static func which(_ tool: String) throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":") {
            let candidate = "\(dir)/\(tool)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw HarnessError("'\(tool)' is not installed; run scripts/deps.sh (it installs every tool the tests use).")
    }

    /// Runs `arguments` to completion (at most `timeout` seconds) and captures its output.
    @discardableResult
    public static func run(_ arguments: [String], environment: [String: String] = [:], stdin: String? = nil,
                           timeout: TimeInterval = 30) throws -> ProcessResult {
        let p = try process(arguments, environment: environment)
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        let input = Pipe()
        p.standardInput = input
        try launch(p)
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try? input.fileHandleForWriting.close()
        let collector = OutputCollector(out: out, err: err)
        let deadline = Date().addingTimeInterval(timeout)
        while p.isRunning {
            if Date() > deadline {
                kill(p.processIdentifier, SIGKILL)
                p.waitUntilExit()
                throw HarnessError("\(arguments.joined(separator: " ")) did not finish in \(Int(timeout)) s")
            }
            usleep(2_000)
        }
        p.waitUntilExit()
        let (o, e) = collector.finish()
        return ProcessResult(status: p.terminationStatus, stdout: o, stderr: e)
    }

    /// Starts a long-running child; the caller kills it.
    public static func start(_ arguments: [String], environment: [String: String] = [:],
                             stdout: Pipe? = nil, stderr: Pipe? = nil) throws -> Process {
        let p = try process(arguments, environment: environment)
        p.standardInput = FileHandle.nullDevice
        p.standardOutput = stdout ?? FileHandle.nullDevice
        p.standardError = stderr ?? FileHandle.nullDevice
        try launch(p)
        return p
    }

    /// The locale every child starts in unless a test names its own: English
    /// texts and formats whatever the machine running the tests speaks.
    /// The parents of `pid` up to the first process (`PPid:` in /proc/PID/status).
    public static func ancestors(of pid: pid_t) -> [pid_t] {
        var chain: [pid_t] = []
        var current = pid
        while current > 1, chain.count < 64 {
            let status = (try? String(contentsOfFile: "/proc/\(current)/status", encoding: .utf8)) ?? ""
            let line = status.split(separator: "\n").first { $0.hasPrefix("PPid:") } ?? ""
            current = pid_t(line.dropFirst("PPid:".count).trimmingCharacters(in: .whitespaces)) ?? 0
            chain.append(current)
        }
        return chain
    }

    public static let neutralLocale: [String: String] = [
        "LANG": "C.UTF-8", "LC_ALL": "", "LC_MESSAGES": "", "LC_TIME": "", "LANGUAGE": "", "TEXTDOMAINDIR": "",
    ]

    /// A not yet started child: `arguments[0]` found on PATH unless absolute,
    /// the test's environment in the neutral locale, `environment` laid over it.
    private static func process(_ arguments: [String], environment: [String: String]) throws -> Process {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: arguments[0].hasPrefix("/") ? arguments[0] : try which(arguments[0]))
        p.arguments = Array(arguments.dropFirst())
        var env = ProcessInfo.processInfo.environment
        for (k, v) in neutralLocale.merging(environment, uniquingKeysWith: { $1 }) { env[k] = v }
        p.environment = env
        return p
    }

    /// Starts `p` the way a desktop session starts a program: no signal
    /// blocked. The test's threads (Dispatch's and Swift Testing's) block
    /// nearly every signal, and a spawned child inherits the spawning
    /// thread's mask, where a session would give none (SIGTERM and SIGCHLD included).
    /// The mask is cleared on this thread for the spawn only.
    public static func launch(_ p: Process) throws {
        var none = sigset_t(), saved = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, &saved)
        defer { pthread_sigmask(SIG_SETMASK, &saved, nil) }
        try p.run()
    }

    /// Kills a child with SIGKILL and reaps it.
    public static func kill9(_ p: Process) {
        if p.isRunning { kill(p.processIdentifier, SIGKILL) }
        p.waitUntilExit()
    }

    /// Starts `arguments` (a bare name is found on PATH) with `environment` as
    /// its whole environment, no standard input, and its output and errors in
    /// the file `log` (made empty first). Foundation's Process makes the child
    /// lead a process group of its own, which `killGroup` ends.
    public static func startLogged(_ arguments: [String], log: String, environment: [String: String]) throws -> Process {
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        let p = Process()
        p.executableURL = URL(fileURLWithPath: arguments[0].hasPrefix("/") ? arguments[0] : try which(arguments[0]))
        p.arguments = Array(arguments.dropFirst())
        p.environment = environment
        p.standardInput = FileHandle.nullDevice
        p.standardOutput = handle
        p.standardError = handle
        try launch(p)
        return p
    }

    /// SIGKILLs the process group `p` leads (the program and what it started),
    /// or only `p` when it leads none (never the test runner's own), and reaps it.
    public static func killGroup(_ p: Process) {
        let pid = p.processIdentifier
        if pid > 0, getpgid(pid) == pid { kill(-pid, SIGKILL) } else if p.isRunning { kill(pid, SIGKILL) }
        p.waitUntilExit()
    }
}

/// Drains both pipes on background threads so a chatty child never blocks.
final class OutputCollector: @unchecked Sendable {
    private let group = DispatchGroup()
    private var out = Data()
    private var err = Data()

    init(out: Pipe, err: Pipe) {
        group.enter()
        DispatchQueue.global().async {
            self.out = out.fileHandleForReading.readDataToEndOfFile()
            self.group.leave()
        }
        group.enter()
        DispatchQueue.global().async {
            self.err = err.fileHandleForReading.readDataToEndOfFile()
            self.group.leave()
        }
    }

    func finish() -> (String, String) {
        group.wait()
        return (String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }
}

/// Polls `condition` until it holds or `timeout` passes: a bounded wait for an event, never a bare sleep.
public func waitUntil(timeout: TimeInterval = 5, interval: TimeInterval = 0.01, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    repeat {
        if try condition() { return true }
        Thread.sleep(forTimeInterval: interval)
    } while Date() < deadline
    return try condition()
}

extension Subprocess {
    /// The first line a child writes to `pipe` (e.g. the display Xvfb chose
    /// with `-displayfd 1`), or nil when none comes within `timeout`.
    public static func firstLine(of pipe: Pipe, timeout: TimeInterval = 10) -> String? {
        let line = Box<String?>(nil)
        DispatchQueue.global().async {
            var bytes = Data()
            while true {
                let b = pipe.fileHandleForReading.readData(ofLength: 1)
                if b.isEmpty || b == Data([0x0a]) { break }
                bytes.append(b)
            }
            line.value = String(decoding: bytes, as: UTF8.self)
        }
        guard waitUntil(timeout: timeout, { line.value != nil }), let text = line.value, !text.isEmpty else { return nil }
        return text
    }

    /// Reads `handle` on a thread of its own until it ends, giving each whole line (without its
    /// newline) to `take` with the time (s since the epoch) its bytes were read; `take` returns false
    /// to stop reading.
    public static func readLines(of handle: FileHandle, _ take: @escaping @Sendable (String, Double) -> Bool) {
        Thread.detachNewThread {
            var buffer = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { return }
                let now = Date().timeIntervalSince1970
                buffer.append(chunk)
                while let newline = buffer.firstIndex(of: 0x0a) {
                    let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                    buffer.removeSubrange(buffer.startIndex...newline)
                    if !take(line, now) { return }
                }
            }
        }
    }
}

/// Waits (bounded) until `read` gives exactly one thing and `match` accepts
/// it; returns it, or nil with what was seen last.
public func waitForOne<T>(timeout: TimeInterval, interval: TimeInterval, _ read: () throws -> [T],
                          _ match: (T) -> Bool) throws -> (found: T?, seen: [T]) {
    var seen: [T] = []
    let found = try waitUntil(timeout: timeout, interval: interval) {
        seen = try read()
        return seen.count == 1 && match(seen[0])
    }
    return (found ? seen[0] : nil, seen)
}

extension String {
    /// For a shell command line: in single quotes, a single quote inside written as '\''. A path
    /// with a space (a clone in "/tmp/icare try") stays one word.
    public var shellQuoted: String { "'" + replacingOccurrences(of: "'", with: #"'\''"#) + "'" }
}
