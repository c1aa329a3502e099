/// A phone iCare can remind: paired with the desktop through KDE Connect or
/// GSConnect, and reachable now. See docs/phones.md.
public struct Phone: Equatable, Sendable {
    /// The desktop program that links the phone.
    public enum App: String, Equatable, Sendable {
        case kdeConnect = "KDE Connect"
        case gsConnect = "GSConnect"
    }

    /// What the program does with the desktop's notifications for this phone.
    public enum Forwarding: Equatable, Sendable {
        /// They stay on the desktop.
        case off
        /// Every notification goes to the phone, each update under a new id, and
        /// the phone alerts for each one (KDE Connect before 26.08, GSConnect).
        case everything
        /// Every notification goes, except those carrying the hint
        /// `x-kdeconnect-source-device` (KDE Connect 26.08 and later).
        case unlessHinted
    }

    public let app: App
    /// The program's id of the device (KDE Connect's deviceId).
    public let id: String
    /// The name the phone gives itself ("Pixel 7").
    public let name: String
    public let forwarding: Forwarding

    public init(app: App, id: String, name: String, forwarding: Forwarding) {
        self.app = app
        self.id = id
        self.name = name
        self.forwarding = forwarding
    }

    /// How the `Phones` property lists it: "Pixel 7 (KDE Connect)".
    public var label: String { "\(name) (\(app.rawValue))" }
}
