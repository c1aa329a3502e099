import DBusKit
import DesktopWatch

/// dunst: the `paused` (b) property of `org.dunstproject.cmd0` at
/// `/org/freedesktop/Notifications` on `org.freedesktop.Notifications`;
/// `dunstctl set-paused` changes it through `Properties.Set`, which emits
/// `PropertiesChanged` with the value. (dunst 1.9 paused by SIGUSR1 emits
/// nothing; that cannot be seen without polling, and we do not poll.)
final class DunstWatcher: ServerPropertyWatcher {
    init(context: WatcherContext) {
        super.init(source: DndSource.dunst, context: context, path: ObjectPath("/org/freedesktop/Notifications"),
                   interface: "org.dunstproject.cmd0", property: "paused")
    }
}
