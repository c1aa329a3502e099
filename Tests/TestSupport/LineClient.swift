import Foundation

/// A small python3 helper that stays running and takes one command a line on
/// stdin, answering `ready` once it is set up and `ok` after each command has
/// been handled (the pointers and the GNOME hand: their devices and sessions
/// live as long as the helper's connection).
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
        guard process.isRunning else { throw HarnessError("\(name) is gone: \(stderrText())") }
        input.fileHandleForWriting.write(Data((command + "\n").utf8))
        try expect("ok")
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
