import DBusKit
import DesktopWatch
import SystemdKit
import FileKit

/// The desktop's do-not-disturb, as observed from every provider at once
/// (GNOME, Cinnamon, MATE, KDE Plasma, XFCE, dunst, swaync, mako; a
/// desktop's own only where it is in use, see `SessionDesktops`). The
/// combined state is on when any provider is on; `source` names the one that
/// turned on most recently. Nothing is polled: each provider is followed
/// through its change signal and its bus name, and a provider that vanishes
/// or sends garbage counts as off. Runs on the loop's thread.
public final class DndMonitor {
    /// Whether any provider is in do-not-disturb.
    public private(set) var active = false
    /// The provider that turned on most recently (`gnome`, `cinnamon`, `mate`,
    /// `kde`, `xfce`, `dunst`, `swaync`, `mako`), or `""` when none is on.
    public private(set) var source = ""
    /// Called with (`active`, `source`) whenever either changes, and only then.
    public var onChange: ((Bool, String) -> Void)?
    /// Whether every watcher has had its first look at its provider (the
    /// bus said who owns its name and the owner answered the first read),
    /// or `firstLookLimit` passed since `start()`. Until then `active` may
    /// still be about to turn on for a desktop that was already in DND.
    public private(set) var settled = false
    /// Called when a provider is found or goes (`providersFound` changed), whether or not `active` did.
    public var onProvidersChange: (() -> Void)?
    /// Called once, when `settled` becomes true.
    public var onSettled: (() -> Void)?
    /// How long (µs) `settled` waits for slow providers before it holds anyway.
    public static let firstLookLimit: UInt64 = 500_000

    private let connection: Connection
    private let loop: EventLoop
    private let log: Log
    let problems: ProblemLog
    private var states: [String: ProviderState] = [:]
    /// When each provider last turned on, as an increasing count (higher is later).
    private var turnedOn: [String: Int] = [:]
    private var turnCount = 0
    /// While above 0, reports are taken but the combined state waits.
    private var batching = 0
    private var watchers: [DndWatcher] = []
    /// Providers whose first look is still out.
    private var awaitingFirstLook: Set<String> = []
    private var firstLookTimer: EventSource?
    /// The dconf database GNOME, Cinnamon and MATE keep their switches in.
    /// Other features follow their own keys in it (`DconfDatabase.follow`),
    /// so the file is read once for all; `start` starts it.
    public let dconf: DconfDatabase
    /// In the Flatpak sandbox: runs when iCare's Shell extension starts (true) or stops (false)
    /// serving GNOME's switch (`ShellBannersWatcher`).
    public var onShellServing: ((Bool) -> Void)?

    /// Which desktop is in use; nil: every desktop's switch is followed (tests of one watcher).
    public let desktops: SessionDesktops?

    /// Watches the desktop through `session`; `dconfDatabasePath` is the GVDB
    /// file dconf keeps GSettings in (`XDGPaths.dconfDatabase`). With
    /// `desktops`, a desktop's switch is watched only where the session may
    /// be that desktop, and its dconf keys act only while it is in use.
    public init(session: Connection, loop: EventLoop, log: Log, dconfDatabasePath: String, desktops: SessionDesktops? = nil) {
        connection = session
        self.loop = loop
        self.log = log
        self.desktops = desktops
        problems = ProblemLog(log: log)
        dconf = DconfDatabase(path: dconfDatabasePath, connection: session, loop: loop, log: log, problems: problems)
        dconf.desktops = desktops
    }

    /// Whether the session may be `desktop`'s, so its watcher is worth starting.
    private func mayBe(_ desktop: Desktop) -> Bool { desktops?.isCandidate(desktop) ?? true }

    /// The providers found so far (on the bus, or for dconf-based desktops a
    /// dconf database on disk), in a fixed order; for the log.
    public var providersFound: [String] {
        DndSource.all.filter { states[$0]?.isPresent == true }
    }

    /// Starts every watcher; each reads its provider's current state as soon
    /// as the bus answers. Call once.
    public func start() {
        precondition(watchers.isEmpty, "DndMonitor.start() called twice")
        let batch: (() -> Void) -> Void = { [weak self] body in
            guard let self else { return }
            self.batching += 1
            body()
            self.batching -= 1
            if self.batching == 0 { self.combine() }
        }
        let context = WatcherContext(connection: connection, problems: problems, report: { [weak self] source, state in
            self?.update(source, state)
        }, batch: batch, looked: { [weak self] source in
            self?.looked(source)
        })
        // One read speaks for three providers: their reports count as one change.
        dconf.batch = batch
        // A desktop the session cannot be is not watched (nor named in the log);
        // the notification servers of no desktop (dunst, swaync, mako) are the server in use wherever they run.
        let keys: [(Desktop, DconfKeyWatcher.Key)] = [(.gnome, .gnome), (.cinnamon, .cinnamon), (.mate, .mate)]
        watchers = keys.filter { mayBe($0.0) && !(Sandbox.isFlatpak && $0.0 == .gnome) }
            .map { DconfKeyWatcher(key: $0.1, database: dconf, context: context) }
        if Sandbox.isFlatpak, mayBe(.gnome) {
            // No dconf in the sandbox: GNOME's switch comes from iCare's Shell extension.
            let shell = ShellBannersWatcher(context: context)
            shell.onServing = { [weak self] in self?.onShellServing?($0) }
            watchers.insert(shell, at: 0)
        }
        if mayBe(.kde) { watchers.append(KDEWatcher(context: context)) }
        if mayBe(.xfce) { watchers.append(XfceWatcher(context: context)) }
        watchers += [DunstWatcher(context: context), SwayncWatcher(context: context), MakoWatcher(context: context)] as [DndWatcher]
        awaitingFirstLook = Set(watchers.map(\.source))
        firstLookTimer = try? loop.addTimer(clock: .monotonic, at: Clock.monotonic.now() + Self.firstLookLimit, accuracy: 10_000) {
            [weak self] in self?.finishFirstLook(timedOut: true)
        }
        for watcher in watchers { watcher.start() }
        dconf.start()
        if firstLookTimer == nil { finishFirstLook(timedOut: true) }
    }

    private func looked(_ source: String) {
        guard !settled, awaitingFirstLook.remove(source) != nil, awaitingFirstLook.isEmpty else { return }
        finishFirstLook(timedOut: false)
    }

    private func finishFirstLook(timedOut: Bool) {
        guard !settled else { return }
        settled = true
        firstLookTimer?.cancel()
        firstLookTimer = nil
        if timedOut, !awaitingFirstLook.isEmpty {
            log.debug("Do-not-disturb: no first answer yet from \(awaitingFirstLook.sorted().joined(separator: ", ")); going on without waiting.")
        }
        awaitingFirstLook = []
        onSettled?()
    }

    /// Takes one provider's state and recomputes the combined one.
    private func update(_ provider: String, _ state: ProviderState) {
        let old = states[provider] ?? .absent
        guard old != state else { return }
        states[provider] = state
        if old.isPresent != state.isPresent {
            log.info("Do-not-disturb: \(provider) \(state.isPresent ? "found" : "gone").",
                     fields: [("ICARE_DND_PROVIDER", provider)])
            onProvidersChange?()
        }
        if state.dnd && !old.dnd {
            turnCount += 1
            turnedOn[provider] = turnCount
        }
        if batching == 0 { combine() }
    }

    private func combine() {
        let on = states.filter { $0.value.dnd }.map(\.key)
        let latest = on.max { turnedOn[$0, default: 0] < turnedOn[$1, default: 0] } ?? ""
        let nowActive = !on.isEmpty
        guard nowActive != active || latest != source else { return }
        active = nowActive
        source = latest
        log.info(active ? "Do-not-disturb is on (\(source))." : "Do-not-disturb is off.",
                 fields: [("ICARE_DND", active ? "1" : "0"), ("ICARE_DND_SOURCE", source)])
        onChange?(active, source)
    }
}
