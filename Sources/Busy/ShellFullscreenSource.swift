import DBusKit
import DesktopWatch

/// A full-screen window where GNOME Shell shows no banner: the Shell holds
/// back every notification that is not critical while its primary monitor
/// is in full screen (docs/desktops.md, "A full-screen window"). iCare's
/// Shell extension, which owns `org.icare.Reminder.ShellRing`, serves the
/// Shell's own state at `/org/icare/Reminder/ShellRing` as the property
/// `PrimaryMonitorInFullscreen` (b) of `org.icare.Reminder.ShellRing`, and
/// sends `PropertiesChanged` with the value when it changes. Without the
/// extension (other desktops, GNOME without it) this source is absent.
final class ShellFullscreenSource: InhibitorSource {
    static let busName = BusName("org.icare.Reminder.ShellRing")
    static let path = ObjectPath("/org/icare/Reminder/ShellRing")
    static let interface = "org.icare.Reminder.ShellRing"
    static let property = "PrimaryMonitorInFullscreen"

    let name = "iCare's GNOME Shell extension"
    let absence = "iCare's GNOME Shell extension is not on the session bus; a full-screen window is seen once it appears"
    private(set) var present: Bool?
    var onChange: (() -> Void)?
    private let shell: BusNameFollower
    private let problem: (String) -> Void
    private var subscription: SignalSubscription?
    private var fullscreen = false

    init(connection: Connection, problem: @escaping (String) -> Void) {
        self.problem = problem
        shell = BusNameFollower(connection: connection, name: Self.busName)
    }

    var state: BusyState {
        fullscreen ? BusyState(active: true, source: BusyState.fullScreen, reason: "GNOME Shell") : .free
    }

    func start() {
        subscription = shell.subscribePropertiesChanged(path: Self.path, interface: Self.interface) { [weak self] message in
            guard let self else { return }
            guard let change = PropertiesChange(message) else { return self.problem("PropertiesChanged had the wrong shape") }
            switch change.news(about: Self.property) {
            case .none: break
            case .invalidated: self.read()
            case .value(let v): self.set(v.bool)
            }
        }
        shell.start { [weak self] owner in
            guard let self else { return }
            self.fullscreen = false
            self.present = owner != nil
            self.onChange?()
            if owner != nil { self.read() }
        }
    }

    private func read() {
        shell.getProperty(Self.path, Self.interface, Self.property) { [weak self] result in
            guard let self else { return }
            guard case .success(let reply) = result else {
                // An extension older than the property owns the name: no full screen is known.
                return self.problem("\(Self.property) could not be read")
            }
            self.set(reply.single("v")?.bool)
        }
    }

    private func set(_ value: Bool?) {
        guard let value else { return problem("\(Self.property) is not a 'b'") }
        guard value != fullscreen else { return }
        fullscreen = value
        onChange?()
    }
}
