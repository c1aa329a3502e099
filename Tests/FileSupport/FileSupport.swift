import Foundation
import Glibc

// Scratch folders and fixture files for the tests of FileKit and ICareFiles (FileKitTests,
// ICareFilesTests), which both write real files and check their bytes and modes.

/// A fresh directory under /tmp, removed with everything in it when released.
public final class TemporaryDirectory {
    public let path: String

    public init() throws {
        var template = Array((NSTemporaryDirectory() + "icare-files-test-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw TestFailure("mkdtemp failed: errno \(errno)") }
        path = String(cString: made)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// `path/relative`.
    public func join(_ relative: String) -> String { path + "/" + relative }
}

/// A test helper that failed; the message says what to fix.
public struct TestFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// The permission bits of `path` (`stat`), or nil when it does not exist.
public func permissions(_ path: String) -> mode_t? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return info.st_mode & 0o7777
}

/// Writes `text` to `path` as is (for fixtures).
public func writeFixture(_ text: String, to path: String) throws {
    try writeFixture(Array(text.utf8), to: path)
}

/// Writes `bytes` to `path` as is (for fixtures), creating the parent directory.
public func writeFixture(_ bytes: [UInt8], to path: String) throws {
    let url = URL(fileURLWithPath: path)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(bytes).write(to: url)
}

/// The bytes of `path`.
public func contents(_ path: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
}

/// The text of `path`.
public func text(_ path: String) throws -> String {
    String(decoding: try contents(path), as: UTF8.self)
}
