import Localization

extension ServiceStatus {
    /// The heading over `sandboxSentences`, in `icarectl status` and the app.
    public static var sandboxHeading: String { tr("Here, iCare cannot do everything:") }

    /// One sentence per entry of `SandboxLimits` (docs/flatpak.md and docs/as-installed.md say why each is so);
    /// a word this client does not know is shown as it is.
    public var sandboxSentences: [String] {
        sandboxLimits.map { limit in
            switch limit {
            // TRANSLATORS: what iCare cannot do where it runs (a Flatpak, or its systemd service), under "Here, iCare cannot do everything:".
            case "gnome-keys": return tr("GNOME's do-not-disturb and eyesight breaks are seen only with iCare's Shell extension.")
            case "sleep": return tr("A suspend is not seen, so a reminder may come right after waking up.")
            case "lock": return tr("A locked screen is not seen: this desktop does not tell apps in a sandbox.")
            case "phone-commands": return tr("Phones get a tap with each reminder, but not Start, Snooze and Skip.")
            case "autostart": return tr("iCare does not start at login: the desktop has not allowed it to run in the background.")
            // TRANSLATORS: the command stays as it is.
            case "phone-commands-restart": return tr("Phones get a tap, but not Start, Snooze and Skip, until iCare starts again, as KDE Connect was set up after it: systemctl --user restart icared")
            default: return limit
            }
        }
    }
}
