import DBusKit

/// iCare's GNOME Shell extension as it serves its name (gnome-extension/state.js,
/// docs/interface.md): `org.icare.Reminder.ShellRing` owning `/org/icare/Reminder/ShellRing`,
/// whose `org.icare.Reminder.ShellRing` interface has three read-only properties,
/// `PrimaryMonitorInFullscreen` (b), `ShowBanners` (b, GNOME's default true) and
/// `SelectedBreaks` (as, default []), each change announced by a `PropertiesChanged` with the
/// value (GJS's `emit_property_changed`). `servesObject: false` is the extension before those
/// properties: the name only.
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
                Property("ShowBanners", "b", doc: "GNOME's banners.", read: { .bool(true) }),
                Property("SelectedBreaks", "as", doc: "GNOME's breaks.", read: { .strings([]) }),
            ]),
        ])]
    }

    public func set(_ on: Bool) {
        fullscreen = on
        object(Self.path)?.emitPropertiesChanged(InterfaceName(Self.interface), ["PrimaryMonitorInFullscreen"])
    }
}
