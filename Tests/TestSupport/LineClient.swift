import Foundation

/// A small python3 helper that stays running and takes one command a line on
/// stdin, answering `ready` once it is set up and then one line for each
/// command once it has been handled: `ok` (`send`), or what the helper says
/// (`ask`: the Shell's hand answers `ok VALUE` or `error JSON`). The pointers
/// and the GNOME hands use it: their devices and sessions live as long as the
/// helper's connection.
final class LineClient: @unchecked Sendable {
    private let process: Process
    private let input = Pipe(), output = Pipe(), errors = Pipe()
    private let file: URL
    /// Named in errors ("the virtual pointer").
    private let name: String
    /// How long (s) an answer may take.
    private let timeout: TimeInterval

    /// Writes `script` to a temporary file and runs it with `environment` (the whole environment it gets).
    init(script: String, name: String, environment: [String: String], timeout: TimeInterval) throws {
        self.name = name
        self.timeout = timeout
        file = FileManager.default.temporaryDirectory.appendingPathComponent("icare-line-client-\(UUID().uuidString).py")
        try script.write(to: file, atomically: true, encoding: .utf8)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        p.arguments = [file.path]
        p.environment = environment
        p.standardInput = input
        p.standardOutput = output
        p.standardError = errors
        try Subprocess.launch(p)
        process = p
        try expect("ready")
    }

    /// Sends one command and waits for its `ok`.
    func send(_ command: String) throws {
        try write(command)
        try expect("ok")
    }

    /// Sends one command and returns the line that answers it, nil when none came in time.
    func ask(_ command: String) throws -> String? {
        try write(command)
        return Subprocess.firstLine(of: output, timeout: timeout)
    }

    private func write(_ command: String) throws {
        guard process.isRunning else { throw HarnessError("\(name) is gone: \(stderrText())") }
        input.fileHandleForWriting.write(Data((command + "\n").utf8))
    }

    private func expect(_ answer: String) throws {
        guard let line = Subprocess.firstLine(of: output, timeout: timeout), line == answer else {
            Subprocess.kill9(process)
            throw HarnessError("\(name) did not answer \(answer): \(stderrText())")
        }
    }

    private func stderrText() -> String {
        if process.isRunning { return "(still running)" }
        return String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }

    func stop() {
        Subprocess.kill9(process)
        try? FileManager.default.removeItem(at: file)
    }

    deinit { stop() }
}
