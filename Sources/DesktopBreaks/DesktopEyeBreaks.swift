import DesktopWatch
import ICareFiles
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

    public init(log: Log) { self.log = log }

    /// Follows the key through the session's dconf database (the one do-not-disturb reads too).
    public func follow(_ dconf: DconfDatabase) {
        dconf.follow(prefix: Self.prefix, name: Self.key) { [weak self] value in self?.read(value) }
    }

    /// Whether a `selected-breaks` value turns eyesight breaks on (unset, other types: off).
    public static func eyesight(in value: GVariantValue?) -> Bool {
        value?.strings?.contains("eyesight") ?? false
    }

    func read(_ value: GVariantValue?) {
        let now = Self.eyesight(in: value)
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
