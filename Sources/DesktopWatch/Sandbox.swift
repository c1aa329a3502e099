import Glibc

/// Whether icared runs inside a Flatpak sandbox: flatpak puts the app's
/// metadata at `/.flatpak-info` in every sandbox it starts (docs/flatpak.md
/// says what changes there).
public enum Sandbox {
    public static let isFlatpak = access("/.flatpak-info", F_OK) == 0
}
