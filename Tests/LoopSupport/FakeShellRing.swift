import DBusKit

/// iCare's GNOME Shell extension as it serves its name (gnome-extension/extension.js,
/// docs/interface.md): `org.icare.Reminder.ShellRing` owning `/org/icare/Reminder/ShellRing`,
/// whose `org.icare.Reminder.ShellRing` interface has one read-only property,
/// `PrimaryMonitorInFullscreen` (b), announced by a `PropertiesChanged` with the value
/// (GJS's `emit_property_changed`). `servesObject: false` is the extension before that
/// property: the name only.
public final class FakeShellRing: FakeBusProgram {
    public static let path = "/org/icare/Reminder/ShellRing"
    public static let interface = "org.icare.Reminder.ShellRing"
    public let servesObject: Bool
    public private(set) var fullscreen: Bool

    public init(fullscreen: Bool = false, servesObject: Bool = true) {
        self.fullscreen = fullscreen
        self.servesObject = servesObject
        super.init(busName: "org.icare.Reminder.ShellRing")
    }

    override public func makeObjects() -> [ExportedObject] {
        guard servesObject else { return [] }
        return [ExportedObject(path: ObjectPath(Self.path), interfaces: [
            Interface(Self.interface, doc: "The ring.", properties: [
                Property("PrimaryMonitorInFullscreen", "b", doc: "Full screen.", read: { [unowned self] in .bool(fullscreen) }),
            ]),
        ])]
    }

    public func set(_ on: Bool) {
        fullscreen = on
        object(Self.path)?.emitPropertiesChanged(InterfaceName(Self.interface), ["PrimaryMonitorInFullscreen"])
    }
}
