import Glibc
import SystemdKit

/// Calls `changed` when the file at `path` is written or replaced, using
/// inotify on its folder (dconf replaces its database by rename, which a
/// watch on the file itself would lose). Creates no folders: while the folder
/// is missing it watches the nearest existing ancestor for the next missing
/// part, and moves down as the parts appear.
final class FileReplacementWatch {
    private let loop: EventLoop
    private let folder: String
    private let fileName: String
    private let changed: () -> Void
    private var source: EventSource?
    /// Counts re-arms, so events still queued for a replaced watch are dropped.
    private var arming = 0
    /// The folder currently watched (the target or an ancestor).
    private(set) var watching: String?

    private static let fileEvents = UInt32(IN_MOVED_TO | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_DELETE)
    private static let selfEvents = UInt32(IN_DELETE_SELF | IN_MOVE_SELF)
    private static let creationEvents = UInt32(IN_CREATE | IN_MOVED_TO)

    init(loop: EventLoop, path: String, changed: @escaping () -> Void) {
        self.loop = loop
        let slash = path.lastIndex(of: "/") ?? path.startIndex
        folder = slash == path.startIndex ? "/" : String(path[..<slash])
        fileName = String(path[path.index(after: slash)...])
        self.changed = changed
    }

    /// Starts watching; throws when inotify cannot be used at all (e.g. no watches left).
    func start() throws(SystemdError) { try arm() }

    /// Stops watching.
    func stop() {
        arming += 1
        source?.cancel()
        source = nil
        watching = nil
    }

    /// Watches the folder, or the nearest existing ancestor. A part that
    /// appears while the ancestor's watch is being set up would send no
    /// event, so after each ancestor watch the awaited part is looked for
    /// again (bounded: each retry means a part appeared meanwhile).
    private func arm() throws(SystemdError) {
        for _ in 0..<32 {
            if try armOnce() { return }
        }
    }

    /// Sets one watch; false when the awaited part already exists (try again).
    private func armOnce() throws(SystemdError) -> Bool {
        arming += 1
        let current = arming
        var candidate = folder
        var next = ""
        while true {
            let target = candidate == folder
            let mask = (target ? Self.fileEvents : Self.creationEvents) | Self.selfEvents | UInt32(IN_ONLYDIR)
            let awaited = next
            do {
                let new = try loop.addInotify(path: candidate, mask: mask) { [weak self] mask, name in
                    guard let self, self.arming == current else { return }
                    self.event(mask: mask, name: name, target: target, awaited: awaited)
                }
                source?.cancel()
                source = new
                watching = candidate
                return target || access((candidate == "/" ? "" : candidate) + "/" + awaited, F_OK) != 0
            } catch where (error.errno == ENOENT || error.errno == ENOTDIR) && candidate != "/" {
                // The folder is missing: watch its parent for it to appear.
                let slash = candidate.lastIndex(of: "/")!
                next = String(candidate[candidate.index(after: slash)...])
                candidate = slash == candidate.startIndex ? "/" : String(candidate[..<slash])
            }
        }
    }

    private func event(mask: UInt32, name: String, target: Bool, awaited: String) {
        if mask & (Self.selfEvents | UInt32(IN_IGNORED)) != 0 || (!target && name == awaited) {
            // The watched folder went away, or the awaited part appeared: move the watch.
            do { try arm() } catch { stop() }
            changed()
        } else if target && name == fileName {
            changed()
        }
    }
}
