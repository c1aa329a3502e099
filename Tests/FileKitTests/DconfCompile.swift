import FileSupport
import Foundation
import Glibc

/// Builds GVDB databases with the real `dconf compile` (Debian: dconf-cli),
/// so the reader is tested against what dconf itself writes.
enum DconfCompile {
    /// The `dconf` program on PATH; a missing tool fails the test loudly.
    static func tool() throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") where access("\(directory)/dconf", X_OK) == 0 {
            return "\(directory)/dconf"
        }
        throw TestFailure("`dconf` is not installed, so the GVDB reader cannot be tested against real dconf databases; install it with `apt-get install dconf-cli`.")
    }

    /// Compiles key files (`[org/gnome/desktop/notifications]` groups with
    /// `key=GVariant text`) into a database and returns its bytes.
    static func database(_ keyFiles: [String: String]) throws -> [UInt8] {
        let dconf = try tool()
        let temp = try TemporaryDirectory()
        let source = temp.join("keyfile.d")
        try FileManager.default.createDirectory(atPath: source, withIntermediateDirectories: true)
        for (name, text) in keyFiles { try writeFixture(text, to: source + "/" + name) }
        let output = temp.join("user")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: dconf)
        process.arguments = ["compile", output, source]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        process.waitUntilExit()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        guard process.terminationStatus == 0 else {
            throw TestFailure("dconf compile failed with status \(process.terminationStatus): \(message)")
        }
        return try contents(output)
    }
}
