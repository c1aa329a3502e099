import Glibc
import FileKit

/// Whether icared still owes the person its first-start notice ("iCare is
/// on"), kept as an empty file, `<state dir>/welcome`, so the debt outlives a
/// logout spent in do-not-disturb or without a notification server.
///
/// The first start is the one that finds neither the state file nor the
/// history folder: every earlier icared wrote its state file at once, so a
/// person who upgrades is never greeted, and one who installs iCare is
/// greeted once. The state folder itself may be there already, empty (the
/// unit's `ExecStartPre=` makes it). The mark is made then and removed once a
/// server has shown the notice (docs/architecture.md, "The first start").
public struct WelcomeMark: Sendable {
    /// The mark's path.
    public let path: String
    private let stateDirectory: String
    private let before: [String]

    /// The mark of `paths`.
    public init(paths: XDGPaths) {
        stateDirectory = paths.stateDirectory
        path = paths.stateDirectory + "/welcome"
        before = [paths.stateFile, paths.historyDirectory]
    }

    /// Whether the notice is owed. On the first start this makes the state
    /// folder (if need be) and the mark.
    public func owed() throws(FileError) -> Bool {
        if try Self.exists(path) { return true }
        for earlier in before where try Self.exists(earlier) { return false }
        try Directory.ensure(stateDirectory)
        try AtomicFile.write("", to: path)
        return true
    }

    /// The notice was shown: the mark goes (an absent one is no error).
    public func settle() throws(FileError) {
        guard unlink(path) == 0 || errno == ENOENT else { throw FileError(function: "unlink", path: path, code: errno) }
    }

    private static func exists(_ path: String) throws(FileError) -> Bool {
        var info = stat()
        if lstat(path, &info) == 0 { return true }
        let code = errno
        guard code == ENOENT else { throw FileError(function: "lstat", path: path, code: code) }
        return false
    }
}
