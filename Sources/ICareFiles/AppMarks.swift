import Glibc
import FileKit

/// Two small files the app keeps beside icared's state (`<state dir>`, the
/// Flatpak's own state folder inside it), read by the app and icared alike
/// (docs/architecture.md, "The welcome").
///
/// `welcome-seen`: empty; the app's welcome was shown to this person, so it
/// opens on its home view from then on.
public struct WelcomeSeen: Sendable {
    public let path: String
    private let stateDirectory: String

    public init(paths: XDGPaths) {
        stateDirectory = paths.stateDirectory
        path = paths.stateDirectory + "/welcome-seen"
    }

    /// Whether the welcome was shown here before.
    public var seen: Bool { access(path, F_OK) == 0 }

    /// Records that it was shown.
    public func record() throws(FileError) {
        try Directory.ensure(stateDirectory)
        try AtomicFile.write("", to: path)
    }
}

/// `starts-at-login`: in the Flatpak, the Background portal's answer when the
/// app's welcome asked it ("yes" or "no" and a newline). Nothing else in the
/// sandbox can tell whether the desktop will start icared at login, so icared
/// reads this file rather than asking the portal at each start.
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
