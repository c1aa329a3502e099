import DBusKit
import SystemdKit
import TestSupport
import LoopSupport

/// A fake desktop program on the private bus, with exactly the D-Bus shape
/// of the real one (docs/desktop-facts.md). Its state survives `vanish()` and
/// `appear()`; everything runs on the loop thread.
class FakeServer: FakeBusProgram {
    /// What the monitor should report it as.
    let source: String

    init(source: String, busName: String) {
        self.source = source
        super.init(busName: busName)
    }

    /// Turns the program's do-not-disturb on or off, announcing it as the real one does.
    func setDND(_ on: Bool) {}
    /// Sends a change signal of the wrong shape.
    func sendGarbage() {}
}

/// `org.freedesktop.Notifications` at `/org/freedesktop/Notifications`, the
/// part every notification server has; `inhibited` adds Plasma's property.
func notificationsInterface(capabilities: [String], server: String, inhibited: (() -> Bool)? = nil) -> Interface {
    var properties: [Property] = []
    if let inhibited {
        properties.append(Property("Inhibited", "b", doc: "Whether notifications are inhibited.", read: { .bool(inhibited()) }))
    }
    return Interface("org.freedesktop.Notifications", doc: "Desktop notifications.", methods: [
        Method("GetCapabilities", out: [Argument("capabilities", "as")], doc: "Capabilities.") { _ in [.strings(capabilities)] },
        Method("GetServerInformation", out: [Argument("name", "s"), Argument("vendor", "s"), Argument("version", "s"), Argument("spec_version", "s")],
               doc: "Who serves.") { _ in [.string(server), .string("fake"), .string("1.0"), .string("1.2")] },
        Method("Notify", in: [Argument("app_name", "s"), Argument("replaces_id", "u"), Argument("app_icon", "s"), Argument("summary", "s"),
                              Argument("body", "s"), Argument("actions", "as"), Argument("hints", "a{sv}"), Argument("expire_timeout", "i")],
               out: [Argument("id", "u")], doc: "Shows one.") { _ in [.uint32(1)] },
        Method("CloseNotification", in: [Argument("id", "u")], doc: "Closes one.") { _ in [] },
    ], properties: properties, signals: [
        SignalDescription("NotificationClosed", [Argument("id", "u"), Argument("reason", "u")], doc: "Closed."),
        SignalDescription("ActionInvoked", [Argument("id", "u"), Argument("action_key", "s")], doc: "Clicked."),
    ])
}
