import DBusKit
import TestSupport

let notificationsPath = "/org/freedesktop/Notifications"
let propertiesInterface = "org.freedesktop.DBus.Properties"

/// KDE Plasma's notification server: capability `inhibitions`, property
/// `Inhibited`, changes through `PropertiesChanged` with the value.
final class FakePlasma: FakeServer {
    var inhibited = false
    let capabilities: [String]

    init(capabilities: [String] = ["body", "body-hyperlinks", "body-markup", "icon-static", "actions", "persistence", "inhibitions", "inline-reply"]) {
        self.capabilities = capabilities
        super.init(source: "kde", busName: "org.freedesktop.Notifications")
    }

    override func makeObjects() -> [ExportedObject] {
        [ExportedObject(path: ObjectPath(notificationsPath), interfaces: [
            notificationsInterface(capabilities: capabilities, server: "Plasma") { [unowned self] in inhibited },
        ])]
    }

    override func setDND(_ on: Bool) {
        inhibited = on
        object(notificationsPath)?.emitPropertiesChanged(InterfaceName("org.freedesktop.Notifications"), ["Inhibited"])
    }

    override func sendGarbage() {
        // PropertiesChanged without its third argument.
        sendSignal(notificationsPath, propertiesInterface, "PropertiesChanged",
                   [.string("org.freedesktop.Notifications"), .vardict([("Inhibited", .bool(true))])])
    }
}

/// dunst: `paused` on `org.dunstproject.cmd0`, set through `Properties.Set`
/// (what `dunstctl set-paused` does) and announced with `PropertiesChanged`.
final class FakeDunst: FakeServer {
    var paused = false

    init() { super.init(source: "dunst", busName: "org.freedesktop.Notifications") }

    override func makeObjects() -> [ExportedObject] {
        [ExportedObject(path: ObjectPath(notificationsPath), interfaces: [
            notificationsInterface(capabilities: ["actions", "body", "body-hyperlinks", "body-markup", "icon-static", "persistence"], server: "dunst"),
            Interface("org.dunstproject.cmd0", doc: "dunst control.", methods: [
                Method("NotificationCloseAll", doc: "Closes all.") { _ in [] },
            ], properties: [
                Property("paused", "b", doc: "Paused.", read: { [unowned self] in .bool(paused) },
                         write: { [unowned self] value throws(DBusError) in setDND(value.bool ?? false) }),
            ]),
        ])]
    }

    override func setDND(_ on: Bool) {
        paused = on
        object(notificationsPath)?.emitPropertiesChanged(InterfaceName("org.dunstproject.cmd0"), ["paused"])
    }

    override func sendGarbage() {
        sendSignal(notificationsPath, propertiesInterface, "PropertiesChanged",
                   [.string("org.dunstproject.cmd0"), .vardict([("paused", .bool(true))])])
    }
}

/// mako: modes through `ListModes() → as` on `fr.emersion.Mako` at
/// `/fr/emersion/Mako`; `Modes` invalidated through `PropertiesChanged` (1.10).
final class FakeMako: FakeServer {
    var modes = ["default"]
    static let path = "/fr/emersion/Mako"

    init() { super.init(source: "mako", busName: "org.freedesktop.Notifications") }

    override func makeObjects() -> [ExportedObject] {
        [
            ExportedObject(path: ObjectPath(notificationsPath), interfaces: [
                notificationsInterface(capabilities: ["actions", "body", "body-markup", "icon-static"], server: "mako"),
            ]),
            ExportedObject(path: ObjectPath(Self.path), interfaces: [
                Interface("fr.emersion.Mako", doc: "mako control.", methods: [
                    Method("ListModes", out: [Argument("modes", "as")], doc: "Modes.") { [unowned self] _ in [.strings(modes)] },
                    Method("SetModes", in: [Argument("modes", "as")], doc: "Sets modes.") { [unowned self] call in
                        modes = call.arguments[0].strings ?? []
                        announce()
                        return []
                    },
                ], properties: [
                    Property("Modes", "as", doc: "Modes.", emitsChange: .invalidates, read: { [unowned self] in .strings(modes) }),
                ]),
            ]),
        ]
    }

    private func announce() { object(Self.path)?.emitPropertiesChanged(InterfaceName("fr.emersion.Mako"), ["Modes"]) }

    override func setDND(_ on: Bool) {
        modes = on ? ["default", "do-not-disturb"] : ["default"]
        announce()
    }

    override func sendGarbage() {
        sendSignal(Self.path, propertiesInterface, "PropertiesChanged", [.string("fr.emersion.Mako"), .uint32(1)])
    }
}

/// SwayNotificationCenter: `GetDnd() → b`; `Subscribe(ubb)` up to 0.7,
/// `SubscribeV2(ubbb)` from 0.8. `replyGarbage` makes GetDnd answer a string.
final class FakeSwaync: FakeServer {
    var dnd = false
    let version2: Bool
    let replyGarbage: Bool
    static let path = "/org/erikreider/swaync/cc"
    static let interface = "org.erikreider.swaync.cc"

    init(version2: Bool = true, replyGarbage: Bool = false) {
        self.version2 = version2
        self.replyGarbage = replyGarbage
        super.init(source: "swaync", busName: "org.erikreider.swaync.cc")
    }

    override func makeObjects() -> [ExportedObject] {
        [ExportedObject(path: ObjectPath(Self.path), interfaces: [
            Interface(Self.interface, doc: "swaync control center.", methods: [
                replyGarbage
                    ? Method("GetDnd", out: [Argument("dnd", "s")], doc: "Broken.") { _ in [.string("yes")] }
                    : Method("GetDnd", out: [Argument("dnd", "b")], doc: "DND.") { [unowned self] _ in [.bool(dnd)] },
                Method("SetDnd", in: [Argument("state", "b")], doc: "Sets DND.") { [unowned self] call in
                    setDND(call.arguments[0].bool ?? false)
                    return []
                },
            ], signals: [
                SignalDescription("Subscribe", [Argument("count", "u"), Argument("dnd", "b"), Argument("cc_open", "b")], doc: "State."),
                SignalDescription("SubscribeV2", [Argument("count", "u"), Argument("dnd", "b"), Argument("cc_open", "b"), Argument("inhibited", "b")],
                                  doc: "State."),
            ]),
        ])]
    }

    override func setDND(_ on: Bool) {
        dnd = on
        let iface = InterfaceName(Self.interface)
        if version2 {
            object(Self.path)?.emit(iface, "SubscribeV2", [.uint32(2), .bool(on), .bool(false), .bool(false)])
        } else {
            object(Self.path)?.emit(iface, "Subscribe", [.uint32(2), .bool(on), .bool(false)])
        }
    }

    override func sendGarbage() {
        sendSignal(Self.path, Self.interface, version2 ? "SubscribeV2" : "Subscribe", [.uint32(2), .string("on"), .bool(false)])
    }
}

/// xfconf: `GetProperty(ss) → v` (PropertyNotFound when unset),
/// `PropertyChanged(ssv)`, `PropertyRemoved(ss)`, serving channel `xfce4-notifyd`.
final class FakeXfconf: FakeServer {
    var store: [String: DBusValue] = [:]
    static let path = "/org/xfce/Xfconf"
    static let interface = "org.xfce.Xfconf"
    static let key = "xfce4-notifyd|/do-not-disturb"

    init() { super.init(source: "xfce", busName: "org.xfce.Xfconf") }

    override func makeObjects() -> [ExportedObject] {
        [ExportedObject(path: ObjectPath(Self.path), interfaces: [
            Interface(Self.interface, doc: "xfconf.", methods: [
                Method("GetProperty", in: [Argument("channel", "s"), Argument("property", "s")], out: [Argument("value", "v")],
                       doc: "Reads.") { [unowned self] call throws(DBusError) in
                    let key = "\(call.arguments[0].string!)|\(call.arguments[1].string!)"
                    guard let value = store[key] else {
                        throw DBusError(name: "org.xfce.Xfconf.Error.PropertyNotFound",
                                        message: "Property \"\(call.arguments[1].string!)\" does not exist on channel \"\(call.arguments[0].string!)\"")
                    }
                    return [.variant(value)]
                },
                Method("SetProperty", in: [Argument("channel", "s"), Argument("property", "s"), Argument("value", "v")], doc: "Writes.") { [unowned self] call in
                    set(call.arguments[0].string!, call.arguments[1].string!, call.arguments[2].unwrapped)
                    return []
                },
                Method("ResetProperty", in: [Argument("channel", "s"), Argument("property", "s"), Argument("recursive", "b")], doc: "Removes.") { [unowned self] call in
                    remove(call.arguments[0].string!, call.arguments[1].string!)
                    return []
                },
            ], signals: [
                SignalDescription("PropertyChanged", [Argument("channel", "s"), Argument("property", "s"), Argument("value", "v")], doc: "Changed."),
                SignalDescription("PropertyRemoved", [Argument("channel", "s"), Argument("property", "s")], doc: "Removed."),
            ]),
        ])]
    }

    func set(_ channel: String, _ property: String, _ value: DBusValue) {
        store["\(channel)|\(property)"] = value
        object(Self.path)?.emit(InterfaceName(Self.interface), "PropertyChanged", [.string(channel), .string(property), .variant(value)])
    }

    func remove(_ channel: String, _ property: String) {
        store["\(channel)|\(property)"] = nil
        object(Self.path)?.emit(InterfaceName(Self.interface), "PropertyRemoved", [.string(channel), .string(property)])
    }

    override func setDND(_ on: Bool) { set("xfce4-notifyd", "/do-not-disturb", .bool(on)) }

    override func sendGarbage() {
        // The value as a plain boolean, not in a variant.
        sendSignal(Self.path, Self.interface, "PropertyChanged", [.string("xfce4-notifyd"), .string("/do-not-disturb"), .bool(true)])
    }
}

/// dconf's writer as far as the monitor sees it: `ca.desrt.dconf` sending
/// `Notify(s prefix, as changes, s tag)` from `/ca/desrt/dconf/Writer/user`.
final class FakeDconfWriter: FakeServer {
    static let path = "/ca/desrt/dconf/Writer/user"
    static let interface = "ca.desrt.dconf.Writer"

    init() { super.init(source: "gnome", busName: "ca.desrt.dconf") }

    override func makeObjects() -> [ExportedObject] {
        [ExportedObject(path: ObjectPath(Self.path), interfaces: [
            Interface(Self.interface, doc: "dconf writer.", methods: [
                Method("Change", in: [Argument("blob", "ay")], out: [Argument("tag", "s")], doc: "Not used here.") { _ in [.string("tag")] },
            ], signals: [
                SignalDescription("Notify", [Argument("prefix", "s"), Argument("changes", "as"), Argument("tag", "s")], doc: "Changed."),
            ]),
        ])]
    }

    func notify(_ prefix: String, _ changes: [String] = [""]) {
        object(Self.path)?.emit(InterfaceName(Self.interface), "Notify", [.string(prefix), .strings(changes), .string(":1.9:user:1")])
    }

    override func sendGarbage() {
        sendSignal(Self.path, Self.interface, "Notify", [.string("/org/gnome/desktop/notifications/show-banners")])
    }
}
