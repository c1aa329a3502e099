import Glibc
import FileKit

/// `welcome-seen`: empty, in the app's own state folder (`<app state dir>`); the app's welcome was shown
/// to this person, so it opens on its home view from then on. Only the app reads and writes it
/// (docs/architecture.md, "The welcome"). 0.7's app wrote it in icared's state folder: that file still
/// counts as seen, so an upgrade is not welcomed again, and it is never written there any more.
public struct WelcomeSeen: Sendable {
    public let path: String
    /// Where 0.7's app wrote it, read only.
    public let pathBefore08: String
    private let directory: String

    public init(paths: XDGPaths) {
        directory = paths.appStateDirectory
        path = paths.appStateDirectory + "/welcome-seen"
        pathBefore08 = paths.stateDirectory + "/welcome-seen"
    }

    /// Whether the welcome was shown here before.
    public var seen: Bool { access(path, F_OK) == 0 || access(pathBefore08, F_OK) == 0 }

    /// Records that it was shown.
    public func record() throws(FileError) {
        try Directory.ensure(directory)
        try AtomicFile.write("", to: path)
    }
}

/// `starts-at-login`, in icared's state folder: in the Flatpak, the Background
/// portal's answer when the app's welcome asked it ("yes" or "no" and a
/// newline), as the app told icared over the bus (`SetStartsAtLogin`). Nothing
/// else in the sandbox can tell whether the desktop will start icared at login,
/// so icared keeps the answer rather than asking the portal at each start.
/// Only icared writes it (0.7's app wrote it itself, in the same words).
public struct LoginAnswer: Sendable {
    public let path: String
    private let stateDirectory: String
    public static let fileName = "starts-at-login"

    public init(paths: XDGPaths) {
        stateDirectory = paths.stateDirectory
        path = paths.stateDirectory + "/" + Self.fileName
    }

    /// The answer kept: true (allowed), false (not allowed), nil (never asked, or a file that says neither).
    public func read() -> Bool? {
        guard let bytes = try? AtomicFile.read(path, limit: 64) else { return nil }
        switch String(decoding: bytes, as: UTF8.self) {
        case "yes\n": return true
        case "no\n": return false
        default: return nil
        }
    }

    public func write(_ allowed: Bool) throws(FileError) {
        try Directory.ensure(stateDirectory)
        try AtomicFile.write(allowed ? "yes\n" : "no\n", to: path)
    }
}
