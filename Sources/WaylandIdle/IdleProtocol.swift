/// The two Wayland protocols that tell a client when the seat has had no
/// input for a timeout and when input comes back (shapes in docs/wayland-idle.md).
public enum IdleProtocol: String, Sendable, CaseIterable {
    /// `ext_idle_notifier_v1` (wayland-protocols, staging): sway 1.8+, Hyprland,
    /// river, labwc, niri, Wayfire, KWin. Events `idled` and `resumed`.
    case extIdleNotify = "ext_idle_notifier_v1"
    /// `org_kde_kwin_idle` (plasma-wayland-protocols): KWin, and wlroots
    /// compositors before ext-idle-notify (sway 1.7 in Debian 12). Events
    /// `idle` and `resumed`.
    case kdeIdle = "org_kde_kwin_idle"

    /// The registry's global name of the manager.
    public var globalName: String { rawValue }

    /// The protocol to use among the registry's globals: ext-idle-notify
    /// where offered (it is the standard one; a compositor may offer both), else
    /// KDE's; nil when there is neither or no seat to watch.
    public static func choose(from globals: [String]) -> IdleProtocol? {
        guard globals.contains("wl_seat") else { return nil }
        return allCases.first { globals.contains($0.globalName) }
    }
}
