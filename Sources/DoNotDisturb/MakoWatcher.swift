import DBusKit
import DesktopWatch

/// mako: DND is a mode the person names `do-not-disturb`. `ListModes() → as`
/// on `fr.emersion.Mako` at `/fr/emersion/Mako` (bus `org.freedesktop.Notifications`);
/// from mako 1.10 the `Modes` property is invalidated through
/// `PropertiesChanged` (no value) and read again. Older mako sends no signal,
/// so a mode change there is seen only when mako restarts.
final class MakoWatcher: ServerPropertyWatcher {
    static let mode = "do-not-disturb"

    init(context: WatcherContext) {
        super.init(source: DndSource.mako, context: context, path: ObjectPath("/fr/emersion/Mako"),
                   interface: "fr.emersion.Mako", property: "Modes")
    }

    override func fetch(_ done: @escaping (Result<Message, DBusError>) -> Void) {
        server.call(path, InterfaceName(interface), "ListModes", reply: done)
    }

    override func dnd(fromReply reply: Message) -> Bool? { reply.single("as").flatMap(dnd(fromValue:)) }

    override func dnd(fromValue value: DBusValue) -> Bool? {
        guard case .array(element: "s", _) = value, let modes = value.strings else { return nil }
        return modes.contains(Self.mode)
    }
}
