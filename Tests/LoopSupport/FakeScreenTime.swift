import DBusKit

/// GNOME Shell's break manager on the bus, as gnome-shell serves it (read in
/// gnome-shell's data/dbus-interfaces/org.gnome.Shell.ScreenTime.xml,
/// js/ui/shellDBus.js `ScreenTimeDBus` and js/misc/breakManager.js; see
/// docs/desktop-facts.md): on the Shell's connection (name
/// `org.gnome.Shell`), the object `/org/gnome/Shell/ScreenTime` with the
/// read-only `State` (u, `BreakState`: 0 disabled, 1 active, 2 idle,
/// 3 in break, 4 break due) and `LastBreakEndTime` (t, wall-clock seconds,
/// 0 while a break runs), both announced with their values in one
/// `PropertiesChanged` on every change of either (`_onNotify`).
public final class FakeScreenTime: FakeBusProgram {
    public static let path = "/org/gnome/Shell/ScreenTime"
    static let interface = InterfaceName("org.gnome.Shell.ScreenTime")
    public private(set) var state: UInt32
    public private(set) var lastBreakEnd: UInt64

    public init(state: UInt32 = 1, lastBreakEnd: UInt64 = 0) {
        self.state = state
        self.lastBreakEnd = lastBreakEnd
        super.init(busName: "org.gnome.Shell")
    }

    override public func makeObjects() -> [ExportedObject] {
        [ExportedObject(path: ObjectPath(Self.path), interfaces: [
            Interface(Self.interface.rawValue, doc: "Screen Time and Break Reminders.", properties: [
                Property("State", "u", doc: "The break manager's state.", read: { [unowned self] in .uint32(state) }),
                Property("LastBreakEndTime", "t", doc: "The last break's end.", read: { [unowned self] in .uint64(lastBreakEnd) }),
            ]),
        ])]
    }

    /// GNOME's break manager moves: both properties are announced together, as GJS does.
    public func set(state: UInt32, lastBreakEnd: UInt64) {
        self.state = state
        self.lastBreakEnd = lastBreakEnd
        object(Self.path)?.emitPropertiesChanged(Self.interface, ["State", "LastBreakEndTime"])
    }
}
