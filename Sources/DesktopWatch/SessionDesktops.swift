import DBusKit
import SystemdKit

/// A desktop whose own settings iCare reads (do-not-disturb, GNOME's break
/// reminders, GNOME's event sounds).
public enum Desktop: String, CaseIterable, Sendable {
    case gnome, kde, cinnamon, mate, xfce

    /// The `XDG_CURRENT_DESKTOP` entries that name it (compared ignoring case).
    var sessionNames: [String] {
        switch self {
        case .gnome: return ["gnome"]
        case .kde: return ["kde"]
        case .cinnamon: return ["x-cinnamon", "cinnamon"]
        case .mate: return ["mate"]
        case .xfce: return ["xfce"]
        }
    }

    /// The name its own shell owns on the session bus; nil where iCare knows
    /// none to rely on (MATE and XFCE: their switch lives with a notification
    /// daemon that owns only `org.freedesktop.Notifications`), and then the
    /// session's word alone decides.
    public var shell: BusName? {
        switch self {
        case .gnome: return BusName("org.gnome.Shell")
        case .kde: return BusName("org.kde.plasmashell")
        case .cinnamon: return BusName("org.Cinnamon")
        case .mate, .xfce: return nil
        }
    }

    /// The dconf dir under which its keys live (nil: it keeps none in dconf).
    var dconfRoot: String? {
        switch self {
        case .gnome: return "/org/gnome/"
        case .cinnamon: return "/org/cinnamon/"
        case .mate: return "/org/mate/"
        case .kde, .xfce: return nil
        }
    }

    /// The desktop whose keys are under the dconf dir `prefix`, if any.
    static func owning(dconfPrefix prefix: String) -> Desktop? {
        allCases.first { $0.dconfRoot.map(prefix.hasPrefix) ?? false }
    }
}

/// Which desktop the session is in, so that each desktop's keys act on that
/// desktop only (a GNOME key left in dconf must not pause iCare in Plasma).
///
/// A desktop is **in use** when
/// - the session names it in `XDG_CURRENT_DESKTOP` (colon-separated, e.g.
///   `ubuntu:GNOME`) — or the session names nothing at all (unset or empty:
///   a bare compositor, a terminal, ssh with a private bus) and the desktop
///   has a shell name to look for — and
/// - its shell owns its name on the session bus (`Desktop.shell`; where none
///   is known, the session's word is enough).
///
/// Followed through `NameOwnerChanged`, never polled; a desktop that is not
/// a candidate is not looked for at all. Runs on the loop's thread.
public final class SessionDesktops {
    /// The desktops that may be in use, from the session's word alone.
    public let candidates: [Desktop]
    /// `XDG_CURRENT_DESKTOP` as given ("" when unset), for the log.
    public let sessionValue: String
    /// Whether every candidate's shell name has had its first answer.
    public private(set) var settled = false
    private var owned: Set<Desktop> = []
    private var awaiting: Set<Desktop> = []
    private var watches: [NameWatch] = []
    private var observers: [() -> Void] = []
    private var settledObservers: [() -> Void] = []
    private let connection: Connection
    private let log: Log
    private var started = false

    /// `currentDesktop`: the session's `XDG_CURRENT_DESKTOP` (nil when unset).
    public init(connection: Connection, log: Log, currentDesktop: String?) {
        self.connection = connection
        self.log = log
        sessionValue = currentDesktop ?? ""
        candidates = Self.candidates(currentDesktop)
    }

    /// The desktops that may be in use with this `XDG_CURRENT_DESKTOP`.
    public static func candidates(_ currentDesktop: String?) -> [Desktop] {
        let entries = (currentDesktop ?? "").split(separator: ":").map { $0.lowercased() }.filter { !$0.isEmpty }
        guard !entries.isEmpty else { return Desktop.allCases.filter { $0.shell != nil } }
        return Desktop.allCases.filter { desktop in desktop.sessionNames.contains { entries.contains($0) } }
    }

    /// Whether the session may be this desktop's (its watchers are worth starting).
    public func isCandidate(_ desktop: Desktop) -> Bool { candidates.contains(desktop) }

    /// Whether the desktop is in use now (see the type's rule).
    public func inUse(_ desktop: Desktop) -> Bool {
        isCandidate(desktop) && (desktop.shell == nil || owned.contains(desktop))
    }

    /// The desktops in use now, in a fixed order.
    public var desktopsInUse: [Desktop] { candidates.filter { inUse($0) } }

    /// Runs `changed` after each change of `desktopsInUse` (not for the first answers,
    /// which `whenSettled` covers).
    public func observe(_ changed: @escaping () -> Void) { observers.append(changed) }

    /// Runs `body` once every candidate's shell has had its first answer (at once if it has).
    public func whenSettled(_ body: @escaping () -> Void) {
        if settled { body() } else { settledObservers.append(body) }
    }

    /// Follows the candidates' shell names. Later calls do nothing.
    public func start() {
        guard !started else { return }
        started = true
        let followed = candidates.filter { $0.shell != nil }
        awaiting = Set(followed)
        for desktop in followed {
            guard let name = desktop.shell else { continue }
            watches.append(connection.watchName(name) { [weak self] owner in self?.shellChanged(desktop, owner != nil) })
        }
        if awaiting.isEmpty { settle() }
    }

    private func shellChanged(_ desktop: Desktop, _ present: Bool) {
        let changed = present ? owned.insert(desktop).inserted : owned.remove(desktop) != nil
        if !settled {
            awaiting.remove(desktop)
            if awaiting.isEmpty { settle() }
            return
        }
        guard changed else { return }
        log.info("Desktop: \(desktop.rawValue) \(present ? "is in use (\(desktop.shell?.rawValue ?? "") on the bus)" : "is gone (\(desktop.shell?.rawValue ?? "") left the bus)").")
        for observer in observers { observer() }
    }

    private func settle() {
        settled = true
        let names = desktopsInUse.map(\.rawValue)
        let session = sessionValue.isEmpty ? "XDG_CURRENT_DESKTOP unset" : "XDG_CURRENT_DESKTOP=\(sessionValue)"
        log.info("Desktop: \(names.isEmpty ? "none whose settings iCare reads" : names.joined(separator: ", ")) (\(session)).")
        let waiting = settledObservers
        settledObservers = []
        for body in waiting { body() }
    }
}
