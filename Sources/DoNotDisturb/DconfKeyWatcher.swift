import DBusKit
import DesktopWatch

/// GNOME, Cinnamon and MATE: one boolean GSettings key each, stored by
/// dconf and read from its database file (see `DconfDatabase`). Every one
/// of them defaults to "not in DND", so an absent key means off.
final class DconfKeyWatcher: DndWatcher {
    /// Where a desktop keeps its switch, and which value means DND.
    struct Key {
        let source: String
        /// The dconf dir watched with `arg0path`.
        let prefix: String
        let name: String
        let dndWhen: Bool

        var fullName: String { prefix + name }

        /// `org.gnome.desktop.notifications show-banners`: DND when false.
        static let gnome = Key(source: DndSource.gnome, prefix: "/org/gnome/desktop/notifications/", name: "show-banners", dndWhen: false)
        /// `org.cinnamon.desktop.notifications display-notifications`: DND when false.
        static let cinnamon = Key(source: DndSource.cinnamon, prefix: "/org/cinnamon/desktop/notifications/",
                                  name: "display-notifications", dndWhen: false)
        /// `org.mate.NotificationDaemon do-not-disturb`: DND when true.
        static let mate = Key(source: DndSource.mate, prefix: "/org/mate/notification-daemon/", name: "do-not-disturb", dndWhen: true)
    }

    let key: Key
    let context: WatcherContext
    private let database: DconfDatabase
    var source: String { key.source }

    init(key: Key, database: DconfDatabase, context: WatcherContext) {
        self.key = key
        self.database = database
        self.context = context
    }

    func start() {
        database.add(prefix: key.prefix) { [weak self] in self?.read($0) }
    }

    /// A provider counts as found while the database exists (and, where the
    /// monitor follows the desktop in use, while its desktop is: else the read is `.missing`).
    private func read(_ reading: DconfReading) {
        defer { looked() }
        switch reading {
        case .missing:
            report(.absent)
        case .unreadable:
            report(.present(dnd: false))
        case .database(let file):
            guard let value = file.value(at: key.fullName) else {
                report(.present(dnd: false))
                return
            }
            guard let flag = value.boolean else {
                problem(.value, "\(key.fullName) holds a '\(value.type)' instead of a boolean")
                report(.present(dnd: false))
                return
            }
            report(.present(dnd: flag == key.dndWhen))
        }
    }
}
