import DBusKit
import ICareFiles
import SystemdKit

/// What a read of the dconf database gave.
enum DconfReading {
    /// The database, parsed.
    case database(GVDBFile)
    /// No file yet: every key has its default.
    case missing
    /// A file that could not be read or parsed (logged once): every key counts as default.
    case unreadable
}

/// The dconf user database (`$XDG_CONFIG_HOME/dconf/user`, GVDB), shared by
/// the GNOME, Cinnamon and MATE watchers. It is read afresh
/// - when `ca.desrt.dconf` sends `Notify` for a watched prefix (matched with `arg0path`),
/// - when `ca.desrt.dconf` appears or vanishes, and
/// - while no dconf service is on the bus (it is D-Bus activated and often
///   not running), when inotify sees the file replaced in its folder.
/// Several triggers in one loop iteration make one read.
final class DconfDatabase {
    let path: String
    private let context: WatcherContext
    private let loop: EventLoop
    private let log: Log
    private var listeners: [(prefix: String, read: (DconfReading) -> Void)] = []
    private var service: NameWatch?
    private var notifications: [SignalSubscription] = []
    private var folderWatch: FileReplacementWatch?
    private var pendingRead: EventSource?

    static let service = BusName("ca.desrt.dconf")
    static let writerPath = "/ca/desrt/dconf/Writer/user"
    static let writerInterface = "ca.desrt.dconf.Writer"
    /// Used in problem log lines: the file and the service are shared by three providers.
    static let problemName = "dconf"

    init(path: String, context: WatcherContext, loop: EventLoop, log: Log) {
        self.path = path
        self.context = context
        self.loop = loop
        self.log = log
    }

    /// Registers a reader for keys under `prefix` (a dconf dir such as `/org/gnome/desktop/notifications/`).
    func add(prefix: String, _ read: @escaping (DconfReading) -> Void) {
        listeners.append((prefix, read))
    }

    /// Subscribes to `Notify` and follows the service; the first answer about
    /// the service's owner leads to the first read.
    func start() {
        notifications = listeners.map { listener in
            context.connection.subscribe(MatchRule(sender: Self.service.rawValue, path: Self.writerPath, interface: Self.writerInterface,
                                                   member: "Notify", arg0path: listener.prefix)) { [weak self] in
                self?.notified($0)
            }
        }
        service = context.connection.watchName(Self.service) { [weak self] owner in self?.serviceChanged(owner) }
    }

    /// Whether the fallback inotify watch is on (tests read this).
    var usesFolderWatch: Bool { folderWatch != nil }

    private func serviceChanged(_ owner: String?) {
        if owner == nil {
            startFolderWatch()
        } else {
            folderWatch?.stop()
            folderWatch = nil
        }
        scheduleRead()
    }

    private func startFolderWatch() {
        guard folderWatch == nil else { return }
        let watch = FileReplacementWatch(loop: loop, path: path) { [weak self] in self?.scheduleRead() }
        do {
            try watch.start()
            folderWatch = watch
            log.debug("Do-not-disturb: no dconf service on the bus; watching \(path) with inotify.")
        } catch {
            context.problems.report(Self.problemName, .watch, "cannot watch \(path) with inotify (\(error))",
                                      consequence: "changes made while no dconf service runs are not seen")
        }
    }

    private func notified(_ message: Message) {
        // Notify carries no state (the file does), so a malformed one is only noted.
        guard message.signature == "sass" else {
            context.problems.report(Self.problemName, .signal, "Notify came with \(message.signatureForLog) instead of 'sass'",
                                      consequence: "ignoring it (the state is read from the database file)")
            return
        }
        scheduleRead()
    }

    private func scheduleRead() {
        if let pendingRead {
            pendingRead.setEnabled(.oneshot)
            return
        }
        pendingRead = try? loop.addDefer { [weak self] in self?.read() }
        if pendingRead == nil { read() }
    }

    /// Reads the file once and hands the result to every listener.
    func read() {
        let reading: DconfReading
        do {
            reading = .database(try GVDBFile(path: path))
        } catch {
            if case .file(let fileError) = error, fileError.isNotFound {
                reading = .missing
            } else {
                context.problems.report(Self.problemName, .file, "cannot read the dconf database: \(error)")
                reading = .unreadable
            }
        }
        context.batch { for listener in listeners { listener.read(reading) } }
    }
}
