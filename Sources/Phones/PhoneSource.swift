import DBusKit
import DesktopWatch

/// One program that links phones (KDE Connect, GSConnect), followed on the
/// session bus: its phones, kept current from its signals (never polled),
/// and a ping to one of them.
protocol PhoneSource: AnyObject {
    /// The paired, reachable phones, as last read.
    var phones: [Phone] { get }
    /// Runs after `phones` changed.
    var onChange: (() -> Void)? { get set }
    func start()
    /// Sends `message` to the phone as one ping; a refusal is logged once.
    func ping(_ phone: Phone, message: String)
}

/// What a program on the bus may make iCare list: a person has a phone or two, a stranger holding the
/// program's name could claim thousands, with names of any length (docs/hostile.md).
enum PhoneLimits {
    static let phones = 16
    static let nameLength = 64

    /// The name as listed: at most `nameLength` characters, the id where it is empty.
    static func name(_ name: String, id: String) -> String {
        let shown = name.isEmpty ? id : name
        return shown.count > nameLength ? String(shown.prefix(nameLength - 1)) + "…" : shown
    }
}
