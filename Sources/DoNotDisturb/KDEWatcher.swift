import DBusKit
import DesktopWatch

/// KDE Plasma: the `Inhibited` (b) property of `org.freedesktop.Notifications`,
/// on a server that lists the `inhibitions` capability; changes come as
/// `PropertiesChanged` with the value.
///
/// Any inhibition is the person's: Plasma's DND switch and apps that inhibit
/// (a presentation, a video call) set it. iCare itself never calls `Inhibit`,
/// so there is no inhibition of ours to subtract.
final class KDEWatcher: ServerPropertyWatcher {
    init(context: WatcherContext) {
        super.init(source: DndSource.kde, context: context, path: ObjectPath("/org/freedesktop/Notifications"),
                   interface: "org.freedesktop.Notifications", property: "Inhibited")
    }

    /// Only a server with the `inhibitions` capability has a meaningful `Inhibited`.
    override func ownerAppeared() {
        server.call(path, InterfaceName(interface), "GetCapabilities") { [weak self] result in
            guard let self else { return }
            guard case .success(let reply) = result else { return self.looked() }
            guard let capabilities = reply.single("as")?.strings else {
                self.problem(.reply, "GetCapabilities answered \(reply.signatureForLog) instead of 'as'")
                return self.looked()
            }
            if capabilities.contains("inhibitions") { self.read() } else { self.looked() }
        }
    }
}
