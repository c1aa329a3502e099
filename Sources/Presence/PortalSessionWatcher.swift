import DBusKit
import DesktopWatch

/// A locked screen seen through the Inhibit portal, for an icared in the
/// Flatpak sandbox, where logind (on the system bus) is out of reach:
/// `CreateMonitor("", {session_handle_token})` answers with a session, and the
/// portal then sends `StateChanged(o session, a{sv} state)` on
/// `org.freedesktop.portal.Inhibit` with `screensaver-active` (b) and
/// `session-state` (u: 1 running, 2 query end, 3 ending). An active screen
/// saver counts as locked, as GNOME's and KDE's own screen savers do
/// (docs/flatpak.md, "The portals").
final class PortalSessionWatcher {
    static let interface = "org.freedesktop.portal.Inhibit"

    /// The screen saver is up (false until the portal says otherwise).
    private(set) var active = false
    /// Whether a portal answered with a monitor: nil until it answers.
    private(set) var present: Bool?
    /// `active` changed.
    var onActive: (() -> Void)?
    /// The portal answered (true) or could not monitor (false, with why).
    var onAnswer: ((Bool, String) -> Void)?

    private let bus: Connection
    private let request: PortalRequest
    private var session = ""
    private var subscription: SignalSubscription?

    init(bus: Connection) {
        self.bus = bus
        request = PortalRequest(connection: bus)
    }

    func start() {
        let token = "icare_presence"
        session = PortalRequest.handle("session", for: bus, token: token)
        subscription = bus.subscribe(MatchRule(sender: PortalRequest.portal.rawValue, path: PortalRequest.path.rawValue,
                                               interface: Self.interface, member: "StateChanged")) { [weak self] message in
            self?.stateChanged(message)
        }
        request.send(Self.interface, "CreateMonitor", [.string("")], options: [("session_handle_token", .string(token))],
                     token: "icare_monitor") { [weak self] answer in
            guard let self else { return }
            switch answer {
            case .success(let results):
                if let handle = results["session_handle"]?.string ?? results["session_handle"]?.objectPath?.rawValue {
                    self.session = handle
                }
                self.present = true
                self.onAnswer?(true, "")
            case .cancelled, .ended:
                self.present = false
                self.onAnswer?(false, "the portal refused to monitor the session")
            case .failed(let why):
                self.present = false
                self.onAnswer?(false, why)
            }
        }
    }

    private func stateChanged(_ message: Message) {
        guard let args = try? message.arguments(), args.count == 2, args[0].objectPath?.rawValue == session,
              let state = args[1].stringDictionary else { return }
        guard let saver = state["screensaver-active"]?.bool, saver != active else { return }
        active = saver
        onActive?()
    }
}
