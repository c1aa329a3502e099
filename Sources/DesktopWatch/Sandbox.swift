import Glibc

/// The sandbox icared runs in: a Flatpak's, or its systemd unit's.
public enum Sandbox {
    /// Inside a Flatpak sandbox: flatpak puts the app's metadata at `/.flatpak-info` in every
    /// sandbox it starts (docs/flatpak.md says what changes there).
    public static let isFlatpak = access("/.flatpak-info", F_OK) == 0
    /// Started by systemd, under `icared.service` and its sandbox: systemd gives each start an
    /// `INVOCATION_ID` (docs/as-installed.md).
    public static let isSystemdUnit = getenv("INVOCATION_ID") != nil
}
