import DBusKit
import DesktopWatch
import SystemdKit

/// GNOME Shell's break manager on the session bus (GNOME 48+; shapes in
/// docs/desktop-facts.md): the object `/org/gnome/Shell/ScreenTime` with
/// interface `org.gnome.Shell.ScreenTime`, exported on the Shell's own
/// connection, so it is reached through the Shell's name `org.gnome.Shell`.
/// Two properties, always announced together in one `PropertiesChanged`
/// with their values: `State` (u) and `LastBreakEndTime` (t, wall-clock
/// seconds; 0 while a break runs or before the first one).
///
/// A GNOME break was taken when the person was away — `State` in-break or
/// idle — and then `LastBreakEndTime` moved past every end seen before
/// (GNOME sets it when the person comes back after a break's length away,
/// however the break manager got there: 4 → 3 → 2 → 1, or 4 → 2 → 1 when
/// the break was taken by going idle); `onBreakTaken` then gets the seconds
/// from when the person left to that end. GNOME says "away" only once its
/// idle watch has seen no input for `idleWatchSeconds`, so the person left
/// that long before the first away state (measured on 48.7 and 50.5: without
/// it a 22 s rest was recorded as 12 s).
/// An end that moves while the person is active (GNOME's skip or delay:
/// break due → active) is no rest.
public final class ScreenTimeWatch {
    public static let busName = BusName("org.gnome.Shell")
    public static let path = ObjectPath("/org/gnome/Shell/ScreenTime")
    public static let interface = "org.gnome.Shell.ScreenTime"
    /// `MIN_BREAK_LENGTH_SECONDS` in breakManager.js (48 and 50): its idle
    /// watch fires after this long without input, and only then does `State`
    /// say idle or in break.
    public static let idleWatchSeconds: UInt64 = 10
    /// `BreakState` in gnome-shell's js/misc/breakManager.js (the code; the
    /// interface XML's comment numbers them differently).
    public enum BreakState: UInt32, Sendable {
        case disabled = 0, active = 1, idle = 2, inBreak = 3, breakDue = 4
    }

    /// Runs when a GNOME break was taken, with its length in seconds.
    public var onBreakTaken: ((UInt32) -> Void)?
    private let shell: BusNameFollower
    private let log: Log
    private var subscription: SignalSubscription?
    /// The latest non-zero `LastBreakEndTime`.
    private var lastEnd: UInt64 = 0
    /// When the person left, as the first away state seen tells it (in break or idle; wall-clock seconds).
    private var awaySince: UInt64?
    private var said = false

    public init(connection: Connection, log: Log) {
        shell = BusNameFollower(connection: connection, name: Self.busName)
        self.log = log
    }

    public func start() {
        subscription = shell.subscribePropertiesChanged(path: Self.path, interface: Self.interface) { [weak self] message in
            guard let self, let change = PropertiesChange(message) else { return }
            self.take(state: change.changed["State"]?.uint32, end: change.changed["LastBreakEndTime"]?.uint64, first: false)
        }
        shell.start { [weak self] owner in
            guard let self else { return }
            self.awaySince = nil
            self.lastEnd = 0
            guard owner != nil else { return }
            self.shell.call(Self.path, .properties, "GetAll", [.string(Self.interface)]) { [weak self] result in
                // No ScreenTime on this Shell (before GNOME 48): nothing to follow.
                guard let self, case .success(let reply) = result, let all = try? reply.arguments().first?.stringDictionary else { return }
                self.take(state: all["State"]?.uint32, end: all["LastBreakEndTime"]?.uint64, first: true)
            }
        }
    }

    /// Reads one announcement (or the first look): the end first, then the state.
    func take(state: UInt32?, end: UInt64?, first: Bool, now: UInt64 = Clock.realtime.now() / 1_000_000) {
        if first, !said, state != nil {
            said = true
            log.info("GNOME Shell's break manager is on the session bus (org.gnome.Shell.ScreenTime); a GNOME break taken counts as a rest.")
        }
        if let end, end > lastEnd {
            let moved = lastEnd != 0 || !first
            lastEnd = end
            if moved, let since = awaySince {
                awaySince = nil
                let seconds = UInt32(clamping: end > since ? end - since : 1)
                log.info("GNOME's own break was taken (\(seconds) s); counted as a rest.")
                onBreakTaken?(seconds)
            }
        }
        guard let state else { return }
        switch BreakState(rawValue: state) {
        // Away: in GNOME's break, or idle (no in-break when GNOME's break was over before its idle watch fired).
        // GNOME tells it `idleWatchSeconds` after the last input (not at the first look: time before icared is no
        // rest it saw). The end comes on return.
        case .inBreak, .idle: if awaySince == nil { awaySince = first ? now : now - min(now, Self.idleWatchSeconds) }
        default: awaySince = nil
        }
    }
}
