/// The names reported as `DoNotDisturbSource`, in the order the log lists them.
///
/// Cinnamon and MATE report their own names rather than `gnome`: they keep
/// their switches under their own dconf keys, and when several are on, the
/// "most recent" rule needs to tell them apart.
enum DndSource {
    static let gnome = "gnome"
    static let cinnamon = "cinnamon"
    static let mate = "mate"
    static let kde = "kde"
    static let xfce = "xfce"
    static let dunst = "dunst"
    static let swaync = "swaync"
    static let mako = "mako"

    static let all = [gnome, cinnamon, mate, kde, xfce, dunst, swaync, mako]
}
