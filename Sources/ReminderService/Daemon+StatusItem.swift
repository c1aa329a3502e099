import DBusKit
import StatusItem
import DesktopReport

extension Daemon {
    /// The ring in the panel: fed after every change like the notifier (Daemon+Followers);
    /// its clicks take the same paths as a client's calls and `Properties.Set`.
    func startStatusItem(_ bus: Connection) {
        let item = StatusItem(bus: bus, loop: loop, log: log) { [unowned self] t in self.clockTime(t) }
        parts.statusItem = item
        item.onPlaceChange = { [unowned self, unowned item] in
            self.facts.desktop.ring = Daemon.ring(item.place)
            self.report()
        }
        item.onAction = { [unowned self] action in
            switch action {
            case .event(let event):
                self.deliver(event)
            case .setting(let key, let value):
                do {
                    try self.changeSetting(key, to: value)
                } catch {
                    self.log.warning("The status item's menu could not change \(key.name): \(error)")
                }
            case .app(let action):
                self.openApp(activationToken: nil, action: action)
            }
        }
        item.onShowStatus = { [unowned self] summary, body in self.parts.notifier?.showStatus(summary: summary, body: body) }
        // After this first update, it follows the status from Daemon+Followers.
        item.update(status: engine.status, settings: engine.settings, timeScale: engine.timeScale)
        facts.desktop.ring = Daemon.ring(item.place)
        item.start()
    }

    /// Where the ring is, in `Capabilities`' words.
    static func ring(_ place: StatusItem.Place) -> DesktopFacts.Ring {
        switch place {
        case .shellExtension: return .shellExtension
        case .tray: return .tray
        case .off: return .off
        case .nowhere: return .nowhere
        }
    }
}
