import DBusKit
import DesktopWatch

/// What one watcher knows about its provider.
enum ProviderState: Equatable {
    /// Not on the bus, or the server there is not this provider: counts as not in DND.
    case absent
    /// Found, in do-not-disturb or not.
    case present(dnd: Bool)

    var dnd: Bool { self == .present(dnd: true) }
    var isPresent: Bool { self != .absent }
}

/// One desktop's do-not-disturb switch, watched through its change signal
/// and its bus name (never polled). It tells the monitor its state through
/// the context whenever that may have changed; the monitor drops repeats.
protocol DndWatcher: AnyObject {
    /// The name reported as `DoNotDisturbSource` (`gnome`, `kde`, …).
    var source: String { get }
    /// The bus, the problem log and where states go.
    var context: WatcherContext { get }
    /// Subscribes, follows the bus name, and reads the current state once it is known.
    func start()
}

extension DndWatcher {
    /// Hands the provider's state to the monitor.
    func report(_ state: ProviderState) { context.report(source, state) }

    /// Logs a misbehaving provider once per kind of problem.
    func problem(_ kind: ProblemKind, _ detail: String) { context.problems.report(source, kind, detail) }

    /// Tells the monitor this watcher has had its first look at its provider
    /// (no owner of the name, or an answer to its read); repeats are harmless.
    func looked() { context.looked(source) }
}

/// What every watcher shares.
final class WatcherContext {
    let connection: Connection
    let problems: ProblemLog
    let report: (String, ProviderState) -> Void
    /// Runs a block of reports that belong together (one dconf read speaks
    /// for three providers), so the combined state changes once, not in steps.
    let batch: (() -> Void) -> Void
    /// Takes a watcher's first look (see `DndWatcher.looked`).
    let looked: (String) -> Void

    init(connection: Connection, problems: ProblemLog, report: @escaping (String, ProviderState) -> Void,
         batch: @escaping (() -> Void) -> Void, looked: @escaping (String) -> Void = { _ in }) {
        self.connection = connection
        self.problems = problems
        self.report = report
        self.batch = batch
        self.looked = looked
    }
}
