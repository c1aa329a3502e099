/// How iCare draws its notifications on one notification server, chosen
/// from the server's `GetServerInformation` and `GetCapabilities`.
///
/// What each server does with actions, `default`, hints and `replaces_id`:
///
/// | server (name) | seen where | what matters |
/// | --- | --- | --- |
/// | xfce4-notifyd 0.7.3 (`Xfce Notify Daemon`) | run under Xvfb | draws `default` as a button with its label; `value` turns the bubble into a bare gauge (no text, no buttons); a body click closes it (reason 2), no action |
/// | notification-daemon 3.20 (`Notification Daemon`) | run under Xvfb | after a `CloseNotification` the bubble stays drawn and hides every later one; a replacement that expires does go away; `default` is not drawn; a body click does nothing |
/// | dunst 1.9 (`dunst`) | run under Xvfb | lists every action, `default` too, in its context menu (`default` with an empty label as an empty line); `do_action` on a click opens that menu when there is no `default`; draws `value` as a bar under the text |
/// | mako 1.7 (`mako`) | run under headless sway | draws no buttons: a left click invokes `default` (mako(5), on-button-left), the others come from `makoctl invoke`/`menu`; `value` is a bar behind the text |
/// | swaync 0.7.3 (`SwayNotificationCenter`) | run under headless sway | `default` is the body click and never a button, but only with a label: with an empty one it is dropped and a body click just closes (reason 2); closes the bubble itself after any action |
/// | GNOME Shell 43.9 (`gnome-shell`) | run headless (Tests/GnomeShellTests) | `default` is the body click and never a button; at most three buttons, drawn only while the pointer is over the banner; no `value`; a low-urgency notification never shows as a banner of its own, so "break complete" goes out with normal urgency (still transient) |
/// | GNOME Shell 48.7, 50.5 | run headless in Debian roots (Tests/RootDesktopTests) | every update shows the banner again, and from 49 replays its pop-in (90 % → 100 %), so the countdown is sent once; a banner that shrinks under the pointer hides as "pointer left" in under a second, so "break complete" is a new notification, not an update; a resident notification from the focused app is marked seen (no banner, no sound), so the reminder is not resident |
/// | Plasma (`Plasma`) | its source (libnotificationmanager); 5.27, 6.3.6, 6.7.4 run headless | `default` is the body click and never a button; `value` is not read; from 6.4 it lists `sound` and plays `sound-name` only for a new notification, never for one that replaces another, so "break complete" is new there |
///
/// Unknown servers get what is right on all of these: no `default`, no
/// `value` (the seconds left are in the summary), `CloseNotification`.
struct NotificationProfile: Equatable, Sendable {
    enum Family: String, Equatable, Sendable {
        case gnomeShell, plasma, xfce, notificationDaemon, dunst, mako, swaync, other
    }

    let family: Family
    /// The server's name and version as it gave them (`Capabilities` says them).
    let serverName: String, serverVersion: String
    /// The server as a person knows it: the desktop's name for the known families, else its own.
    var displayName: String {
        switch family {
        case .gnomeShell: return "GNOME Shell"
        case .plasma: return "Plasma"
        case .xfce: return "Xfce"
        case .swaync: return "SwayNotificationCenter"
        case .notificationDaemon, .dunst, .mako, .other: return serverName
        }
    }
    /// The server draws action buttons (the `actions` capability).
    let actions: Bool
    /// Send the `default` action (a body click starts the break), with an empty label.
    let bodyClickStarts: Bool
    /// Give `default` Start's label rather than an empty one (the server drops an unlabelled `default`).
    let labelledDefault: Bool
    /// Send the countdown's progress as the `value` hint.
    let progressHint: Bool
    /// Take a notification away by replacing it with one that expires at once
    /// (`CloseNotification` strands the bubble on this server).
    let closesByExpiring: Bool
    /// The urgency of "break complete": low (0), or normal (1) where a low one never shows as a banner (GNOME Shell).
    let completeUrgency: UInt8
    /// The server plays the `sound-name` hint (the `sound` capability; GNOME Shell): icared plays nothing itself.
    let sound: Bool
    /// Update the countdown every second. Not on GNOME Shell 49 and later, which replays the banner's
    /// pop-in on every update: the countdown goes once, with the break's length (the ring counts).
    let countsEachSecond: Bool
    /// Close the countdown and show "break complete" as a new notification. On GNOME Shell an update that
    /// shrinks the banner under the pointer hides it at once, and a new banner keeps its few seconds; a server
    /// that plays sounds itself may play none for an update (Plasma 6.4 and later), and icared leaves it the end's.
    let completeIsNew: Bool
    /// Send the reminder as `resident`. Not on GNOME Shell, which marks a resident notification from
    /// the focused app (the iCare window's) as seen: it would neither show nor sound.
    let residentReminder: Bool
    /// A popup of normal urgency is drawn under a focused full-screen window and nothing on the bus says so
    /// (Plasma: 6.3 stacks it below; 6.4 and later turn on do-not-disturb, which icared sees): with
    /// FullScreenReminders on, reminders go out critical, the one layer above a full screen.
    let hiddenUnderFullScreen: Bool

    /// The profile for a server; `name` and `version` are `GetServerInformation`'s first and third
    /// fields ("" when it did not answer).
    init(name: String, version: String = "", capabilities: Set<String>) {
        serverName = name
        serverVersion = version
        let family = Self.family(name)
        self.family = family
        actions = capabilities.contains("actions")
        switch family {
        case .gnomeShell, .plasma, .mako, .swaync: bodyClickStarts = actions
        case .xfce, .notificationDaemon, .dunst, .other: bodyClickStarts = false
        }
        labelledDefault = family == .swaync
        progressHint = family == .dunst
        closesByExpiring = family == .notificationDaemon
        completeUrgency = family == .gnomeShell ? 1 : 0
        sound = capabilities.contains("sound")
        let major = Int(version.prefix { $0 != "." }) ?? 0
        countsEachSecond = !(family == .gnomeShell && major >= 49)
        completeIsNew = family == .gnomeShell || (family == .plasma && sound)
        residentReminder = family != .gnomeShell
        hiddenUnderFullScreen = family == .plasma
    }

    static func family(_ name: String) -> Family {
        switch name.lowercased() {
        case "gnome-shell": return .gnomeShell
        case "plasma": return .plasma
        case "xfce notify daemon": return .xfce
        case "notification daemon": return .notificationDaemon
        case "dunst": return .dunst
        case "mako": return .mako
        case "swaync", "swaynotificationcenter": return .swaync
        default: return .other
        }
    }
}
