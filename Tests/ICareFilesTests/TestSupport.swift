import Foundation
import Glibc
@testable import ICareFiles

/// A fresh directory under /tmp, removed with everything in it when released.
final class TemporaryDirectory {
    let path: String

    init() throws {
        var template = Array((NSTemporaryDirectory() + "icare-files-test-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw TestFailure("mkdtemp failed: errno \(errno)") }
        path = String(cString: made)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// `path/relative`.
    func join(_ relative: String) -> String { path + "/" + relative }
}

/// A test helper that failed; the message says what to fix.
struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The permission bits of `path` (`stat`), or nil when it does not exist.
func permissions(_ path: String) -> mode_t? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return info.st_mode & 0o7777
}

/// Writes `text` to `path` as is (for fixtures).
func writeFixture(_ text: String, to path: String) throws {
    try writeFixture(Array(text.utf8), to: path)
}

/// Writes `bytes` to `path` as is (for fixtures), creating the parent directory.
func writeFixture(_ bytes: [UInt8], to path: String) throws {
    let url = URL(fileURLWithPath: path)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(bytes).write(to: url)
}

/// The bytes of `path`.
func contents(_ path: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
}

/// The text of `path`.
func text(_ path: String) throws -> String {
    String(decoding: try contents(path), as: UTF8.self)
}
