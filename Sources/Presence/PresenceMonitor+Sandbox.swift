extension PresenceMonitor {
    /// In the Flatpak sandbox, where logind is out of reach, a locked screen is seen through the
    /// Inhibit portal's monitor or a screen saver on the session bus; `onLockSeen` runs when that
    /// changes, once the portal has answered (docs/flatpak.md).
    func updateLockSeen() {
        guard let portal, let answered = portal.present else { return }
        let seen = answered || screensavers.contains { $0.present }
        guard seen != lockSeen else { return }
        lockSeen = seen
        onLockSeen?(seen)
    }
}
