import Foundation

/// A long-running child whose stdout is collected as it arrives.
public final class Collected: @unchecked Sendable {
    public let process: Process
    private let pipe = Pipe()
    private let lock = NSLock()
    private var data = Data()

    public init(_ arguments: [String], environment: [String: String]) throws {
        process = try Subprocess.start(arguments, environment: environment, stdout: pipe)
        pipe.fileHandleForReading.readabilityHandler = { @Sendable [weak self] h in
            let chunk = h.availableData
            guard let self, !chunk.isEmpty else { return }
            self.lock.lock()
            self.data.append(chunk)
            self.lock.unlock()
        }
    }

    /// Everything printed so far.
    public var text: String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: data, as: UTF8.self)
    }

    public var lines: [String] { text.split(separator: "\n").map(String.init) }

    /// Stops collecting and kills the child.
    public func stop() {
        pipe.fileHandleForReading.readabilityHandler = nil
        Subprocess.kill9(process)
    }
}
