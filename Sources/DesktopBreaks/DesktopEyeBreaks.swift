import DBusKit
import DesktopWatch
import FileKit
import SystemdKit

/// GNOME 48's own break reminders (`org.gnome.desktop.break-reminders`,
/// dconf dir `/org/gnome/desktop/break-reminders/`, key `selected-breaks`
/// of type `as`; see docs/desktop-facts.md). With `eyesight` among them,
/// GNOME reminds every 20 minutes for 20 seconds too, and a person who
/// also runs iCare gets two reminders for one break. Read through the dconf
/// database iCare already follows for do-not-disturb; said once in the log.
public final class DesktopEyeBreaks {
    public static let prefix = "/org/gnome/desktop/break-reminders/"
    public static let key = "selected-breaks"

    /// GNOME's eyesight breaks are on.
    public private(set) var on = false
    /// Runs when `on` changes.
    public var onChange: ((Bool) -> Void)?
    private let log: Log
    private var said = false
    private var shell: ShellStateProperty?
    private var saidProblem = false

    public init(log: Log) { self.log = log }

    /// Follows the key through the session's dconf database (the one do-not-disturb reads too).
    public func follow(_ dconf: DconfDatabase) {
        dconf.follow(prefix: Self.prefix, name: Self.key) { [weak self] value in self?.read(Self.eyesight(in: value)) }
    }

    /// In the Flatpak sandbox, where dconf is out of reach: the key as iCare's Shell extension
    /// serves it (`SelectedBreaks`, `as`; empty where the Shell has no such schema).
    public func follow(shell connection: Connection) {
        let shell = ShellStateProperty(connection: connection, property: "SelectedBreaks") { [weak self] problem in
            guard let self, !self.saidProblem else { return }
            self.saidProblem = true
            self.log.warning("iCare's GNOME Shell extension: \(problem); GNOME's eyesight breaks are not known (logged once).")
        }
        self.shell = shell
        shell.start { [weak self] reading in
            guard case .value(let value) = reading else { return self?.read(false) ?? () }
            self?.read(value.strings?.contains("eyesight") ?? false)
        }
    }

    /// Whether a `selected-breaks` value turns eyesight breaks on (unset, other types: off).
    public static func eyesight(in value: GVariantValue?) -> Bool {
        value?.strings?.contains("eyesight") ?? false
    }

    func read(_ now: Bool) {
        guard now != on else { return }
        on = now
        if now, !said {
            said = true
            log.notice("""
                GNOME's own eyesight breaks are on as well, so each break may be announced twice. \
                Keep one of the two: turn off eyesight breaks in GNOME Settings (Wellbeing), or stop iCare \
                (systemctl --user disable --now icared) (logged once).
                """)
        }
        onChange?(now)
    }
}
