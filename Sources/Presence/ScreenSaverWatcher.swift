import DBusKit

/// Follows one screensaver on the session bus: `GetActive() → b` when its
/// name appears, then `ActiveChanged(b)`. GNOME Shell serves
/// `org.gnome.ScreenSaver`; KDE and others `org.freedesktop.ScreenSaver`,
/// at `/org/freedesktop/ScreenSaver` or `/ScreenSaver`.
final class ScreenSaverWatcher {
    /// The two screensavers `docs/desktop-facts.md` knows.
    static let gnome = (name: "org.gnome.ScreenSaver", interface: "org.gnome.ScreenSaver", paths: ["/org/gnome/ScreenSaver"])
    static let freedesktop = (name: "org.freedesktop.ScreenSaver", interface: "org.freedesktop.ScreenSaver",
                              paths: ["/org/freedesktop/ScreenSaver", "/ScreenSaver"])

    let name: String
    private let interface: String
    private let paths: [String]
    private let bus: Connection
    /// Whether the name has an owner.
    private(set) var present = false
    /// Whether the screensaver (lock screen) is up; false while absent.
    private(set) var active = false

    /// The name appeared (true) or vanished (false).
    var onPresence: ((Bool) -> Void)?
    /// `active` changed.
    var onActive: (() -> Void)?

    private var generation = 0
    private var nameWatch: NameWatch?
    private var subscription: SignalSubscription?

    init(bus: Connection, name: String, interface: String, paths: [String]) {
        self.bus = bus
        self.name = name
        self.interface = interface
        self.paths = paths
    }

    func start() {
        guard nameWatch == nil else { return }
        // Any path: KDE announces on both of its paths; a repeat is no change.
        subscription = bus.subscribe(MatchRule(sender: name, interface: interface, member: "ActiveChanged")) { [weak self] m in
            guard let value = (try? m.arguments())?.first?.bool else { return }
            self?.set(value)
        }
        nameWatch = bus.watchName(BusName(name)) { [weak self] owner in self?.ownerChanged(owner) }
    }

    private func ownerChanged(_ owner: String?) {
        generation += 1
        present = owner != nil
        onPresence?(present)
        if present { readActive(pathIndex: 0, gen: generation) } else { set(false) }
    }

    /// Tries each known path in turn; a server without `GetActive` still sends `ActiveChanged`.
    private func readActive(pathIndex: Int, gen: Int) {
        guard pathIndex < paths.count else { return }
        bus.callMethod(name, paths[pathIndex], interface, "GetActive") { [weak self] result in
            guard let self, gen == self.generation else { return }
            if case .success(let args) = result, let value = args.first?.bool {
                self.set(value)
            } else {
                self.readActive(pathIndex: pathIndex + 1, gen: gen)
            }
        }
    }

    private func set(_ value: Bool) {
        guard value != active else { return }
        active = value
        onActive?()
    }
}
