import DBusKit
import FileKit
import SystemdKit

/// What a read of the dconf database gave.
public enum DconfReading {
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
/// One database serves every feature that reads a GSettings key (do-not-disturb,
/// GNOME's break reminders, …): each adds its prefix; a reader added after
/// `start` is subscribed at once and gets a read of its own.
///
/// With `desktops` set, a desktop's keys (GNOME's under `/org/gnome/`,
/// Cinnamon's, MATE's) reach their readers only while that desktop is in
/// use; otherwise the readers get `.missing` (every key at its default), and
/// no read happens before the desktop in use is known.
public final class DconfDatabase {
    public let path: String
    private let connection: Connection
    private let problems: ProblemLog
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
    /// Used in problem log lines: the file and the service are shared by every reader.
    static let problemName = "dconf"

    /// Wraps each read's round of listeners; the owner of several related
    /// readers sets it to take their results as one change.
    public var batch: (() -> Void) -> Void = { $0() }
    /// Which desktop is in use; nil: every desktop's keys are read (set before `start`).
    public var desktops: SessionDesktops?
    private var started = false

    /// `path` is the GVDB file (`XDGPaths.dconfDatabase`); problems are logged once each, as `dconf`.
    public init(path: String, connection: Connection, loop: EventLoop, log: Log, problems: ProblemLog) {
        self.path = path
        self.connection = connection
        self.loop = loop
        self.log = log
        self.problems = problems
    }

    /// Registers a reader for keys under `prefix` (a dconf dir such as `/org/gnome/desktop/notifications/`).
    public func add(prefix: String, _ read: @escaping (DconfReading) -> Void) {
        listeners.append((prefix, read))
        guard started else { return }
        notifications.append(subscribe(prefix))
        scheduleRead()
    }

    /// Follows one key: `changed` runs with its value after every read of its
    /// dir, nil when unset or when the database is missing or unreadable.
    public func follow(prefix: String, name: String, _ changed: @escaping (GVariantValue?) -> Void) {
        add(prefix: prefix) { reading in
            if case .database(let file) = reading { changed(file.value(at: prefix + name)) } else { changed(nil) }
        }
    }

    /// Subscribes to `Notify` and follows the service; the first answer about
    /// the service's owner leads to the first read. Later calls do nothing.
    public func start() {
        guard !started else { return }
        started = true
        notifications = listeners.map { subscribe($0.prefix) }
        if let desktops {
            desktops.observe { [weak self] in self?.scheduleRead() }
            desktops.whenSettled { [weak self] in self?.scheduleRead() }
            desktops.start()
        }
        service = connection.watchName(Self.service) { [weak self] owner in self?.serviceChanged(owner) }
    }

    private func subscribe(_ prefix: String) -> SignalSubscription {
        connection.subscribe(MatchRule(sender: Self.service.rawValue, path: Self.writerPath, interface: Self.writerInterface,
                                       member: "Notify", arg0path: prefix)) { [weak self] in self?.notified($0) }
    }

    /// Whether the fallback inotify watch is on (tests read this).
    public var usesFolderWatch: Bool { folderWatch != nil }

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
            log.debug("dconf: no dconf service on the bus; watching \(path) with inotify.")
        } catch {
            problems.report(Self.problemName, .watch, "cannot watch \(path) with inotify (\(error))",
                                      consequence: "changes made while no dconf service runs are not seen")
        }
    }

    private func notified(_ message: Message) {
        // Notify carries no state (the file does), so a malformed one is only noted.
        guard message.signature == "sass" else {
            problems.report(Self.problemName, .signal, "Notify came with \(message.signatureForLog) instead of 'sass'",
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
    public func read() {
        if let desktops, !desktops.settled { return }  // read again once it is known
        let reading: DconfReading
        do {
            reading = .database(try GVDBFile(path: path))
        } catch {
            if case .file(let fileError) = error, fileError.isNotFound {
                reading = .missing
            } else {
                problems.report(Self.problemName, .file, "cannot read the dconf database: \(error)")
                reading = .unreadable
            }
        }
        batch {
            for listener in listeners { listener.read(applies(listener.prefix) ? reading : .missing) }
        }
    }

    /// Whether keys under `prefix` act now: they belong to no desktop, or to the one in use.
    public func applies(_ prefix: String) -> Bool {
        guard let desktops, let desktop = Desktop.owning(dconfPrefix: prefix) else { return true }
        return desktops.inUse(desktop)
    }
}
