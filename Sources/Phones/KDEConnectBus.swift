import DBusKit

/// KDE Connect's daemon (`kdeconnectd`) on the bus, as the phone reminders (`KDEConnectPhones`) and the
/// phone remote (PhoneRemote's `KDEConnectRemote`) both reach it: its name, the daemon's object and each
/// device's (docs/phones.md has every shape).
public enum KDEConnectBus {
    public static let name = BusName("org.kde.kdeconnect")
    public static let daemonPath = ObjectPath("/modules/kdeconnect")
    public static let daemonInterface = InterfaceName("org.kde.kdeconnect.daemon")
    public static let deviceInterface = InterfaceName("org.kde.kdeconnect.device")
    /// The provider's name in the problem log.
    public static let provider = "KDE Connect"

    /// A device's object (`/modules/kdeconnect/devices/ID`, and `below` it); nil for an id that is no path element.
    public static func devicePath(_ id: String, _ below: String = "") -> ObjectPath? {
        ObjectPath(rawValue: daemonPath.rawValue + "/devices/" + id + below)
    }
}
