import DBusKit
import DesktopWatch

/// Starting with the session from inside the Flatpak sandbox. Outside it the
/// package's systemd unit or autostart entry starts icared; a Flatpak cannot
/// write either, so the app's welcome asks the Background portal:
/// `RequestBackground("", {reason, autostart: true, commandline: ["icared"]})`.
/// The portal asks the person once, showing iCare's reason, keeps the answer
/// in its permission store (later calls get it without a dialog) and writes
/// the session's autostart entry itself (`flatpak run --command=icared …`).
/// The answer's `autostart` says whether it will start at login
/// (docs/flatpak.md, "The portals").
public final class BackgroundRequest {
    public enum Outcome: Equatable {
        /// iCare starts at login.
        case allowed
        /// The person (or their settings) did not allow it.
        case denied
        /// No portal answered; the sentence says why.
        case unavailable(String)
    }

    private let request: PortalRequest

    public init(connection: Connection) {
        request = PortalRequest(connection: connection)
    }

    /// Asks once; `done` runs with the answer.
    public func ask(reason: String, done: @escaping (Outcome) -> Void) {
        let options: [(String, DBusValue)] = [("reason", .string(reason)), ("autostart", .bool(true)),
                                              ("commandline", .strings(["icared"])), ("dbus-activatable", .bool(false))]
        request.send("org.freedesktop.portal.Background", "RequestBackground", [.string("")], options: options,
                     token: "icare_background") { answer in
            switch answer {
            case .success(let results):
                done(results["autostart"]?.bool == true ? .allowed : .denied)
            case .cancelled, .ended:
                done(.denied)
            case .failed(let why):
                done(.unavailable(why))
            }
        }
    }
}
