import Glibc
import FileKit

/// The id of the notification on screen and the server that showed it,
/// kept in `$XDG_RUNTIME_DIR/icare/notification` (`<id> <server's unique
/// name>`), so an icared that starts after one was killed (SIGKILL, a crash)
/// replaces or closes the bubble its predecessor left, instead of leaving
/// it on screen with buttons nobody answers. The runtime folder goes with
/// the session, and the file with the notification; a server that restarted
/// has another unique name, and its ids are not ours.
struct NotificationMemo {
    let directory: String
    var path: String { directory + "/notification" }

    /// `runtimeDirectory`: `$XDG_RUNTIME_DIR/icare` (nil: no runtime folder, nothing kept).
    init?(runtimeDirectory: String?) {
        guard let runtimeDirectory else { return nil }
        directory = runtimeDirectory
    }

    /// The id and server left by an earlier icared, if any.
    func load() -> (id: UInt32, server: String)? {
        guard let bytes = try? AtomicFile.readIfPresent(path, limit: 512) else { return nil }
        let words = String(decoding: bytes, as: UTF8.self).split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard words.count == 2, let id = UInt32(words[0]), id != 0, words[1].hasPrefix(":") else { return nil }
        return (id, String(words[1]))
    }

    /// Remembers `id` shown by `server`; 0 forgets.
    func record(_ id: UInt32, server: String?) throws(FileError) {
        guard id != 0, let server else {
            if unlink(path) != 0, errno != ENOENT { throw FileError(function: "unlink", path: path, code: errno) }
            return
        }
        try Directory.ensure(directory)
        try AtomicFile.write("\(id) \(server)\n", to: path)
    }
}
