import DBusKit
import DesktopWatch

/// A full-screen window where GNOME Shell shows no banner: the Shell holds
/// back every notification that is not critical while its primary monitor
/// is in full screen (docs/desktops.md, "A full-screen window"). iCare's
/// Shell extension serves the Shell's own state as the property
/// `PrimaryMonitorInFullscreen` (b) of its `ShellStateProperty` object.
/// Without the extension (other desktops, GNOME without it) this source is absent.
final class ShellFullscreenSource: InhibitorSource {
    static let property = "PrimaryMonitorInFullscreen"

    let name = "iCare's GNOME Shell extension"
    let absence = "iCare's GNOME Shell extension is not on the session bus; a full-screen window is seen once it appears"
    private(set) var present: Bool?
    var onChange: (() -> Void)?
    private let shell: ShellStateProperty
    private let problem: (String) -> Void
    private var fullscreen = false

    init(connection: Connection, problem: @escaping (String) -> Void) {
        self.problem = problem
        shell = ShellStateProperty(connection: connection, property: Self.property, problem: problem)
    }

    var state: BusyState {
        fullscreen ? BusyState(active: true, source: BusyState.fullScreen, reason: "GNOME Shell") : .free
    }

    func start() {
        shell.start { [weak self] reading in
            guard let self else { return }
            let wasPresent = self.present
            switch reading {
            case .absent:
                self.present = false
                self.set(false)
            case .unreadable:
                // An extension older than the property owns the name: no full screen is known.
                self.present = true
                self.set(false)
            case .value(let value):
                self.present = true
                guard let fullscreen = value.bool else {
                    self.problem("\(Self.property) is not a 'b'")
                    return self.set(false)
                }
                self.set(fullscreen)
            }
            if wasPresent != self.present { self.onChange?() }
        }
    }

    private func set(_ value: Bool) {
        guard value != fullscreen else { return }
        fullscreen = value
        onChange?()
    }
}
