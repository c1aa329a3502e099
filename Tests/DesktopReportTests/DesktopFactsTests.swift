import Testing
@testable import DesktopReport

/// What each fact makes of a capability (English: no catalog here). The daemon's side, that the facts are
/// what the desktop has, is DoctorTests' and the desktop suites'.
@Suite struct DesktopFactsTests {
    func entry(_ facts: DesktopFacts, _ name: Capability.Name) -> Capability {
        facts.capabilities.first { $0.name == name }!
    }

    @Test func everyNameOnceInItsOrder() {
        #expect(DesktopFacts().capabilities.map(\.name) == Capability.Name.allCases)
    }

    @Test func theServerAndItsButtons() {
        var f = DesktopFacts()
        #expect(entry(f, .buttons).state == .limited)
        f.server = .none
        #expect(entry(f, .buttons) == Capability(.buttons, .missing, "No notification server is running: reminders go to iCare's log only."))
        f.server = .found(name: "mako", version: "1.7.1", actions: true)
        #expect(entry(f, .buttons) == Capability(.buttons, .works, "mako 1.7.1 shows Start, Snooze and Skip."))
        f.server = .found(name: "", version: "", actions: false)
        #expect(entry(f, .buttons).words == "The notification server draws no buttons: start a break from the ring or with 'icarectl start'.")
    }

    @Test func doNotDisturbTimeAwayAndCalls() {
        var f = DesktopFacts()
        #expect(entry(f, .doNotDisturb).state == .limited, "not settled yet")
        f.doNotDisturbSettled = true
        #expect(entry(f, .doNotDisturb).state == .missing)
        f.doNotDisturb = ["kde", "dunst"]
        #expect(entry(f, .doNotDisturb) == Capability(.doNotDisturb, .works, "Follows the do-not-disturb of Plasma, dunst."))
        #expect(entry(f, .timeAway).state == .missing && entry(f, .calls).state == .missing)
        f.timeAway = ["logind", "org.gnome.ScreenSaver"]
        f.busy = ["PipeWire"]
        #expect(entry(f, .timeAway) == Capability(.timeAway, .works, "Sees when you step away or lock the screen: time away counts as a rest."))
        #expect(entry(f, .calls) == Capability(.calls, .works, "Sees calls, screen shares and full screen through PipeWire."))
        // A screen saver alone sees the lock, not a person who walks away without locking.
        f.timeAway = ["org.freedesktop.ScreenSaver"]
        #expect(entry(f, .timeAway) == Capability(.timeAway, .limited, "Sees when the screen is locked, but not when you step away without locking it."))
        for idle in ["org.gnome.Mutter.IdleMonitor", "wayland ext_idle_notifier_v1", "wayland org_kde_kwin_idle"] {
            f.timeAway = ["org.gnome.ScreenSaver", idle]
            #expect(entry(f, .timeAway).state == .works, "\(idle)")
        }
    }

    /// The watchers' names are for the log (PresenceMonitor.sourcesFound, BusyMonitor.sourcesFound): the
    /// words say what is seen, and name only desktops a person knows (PersonWordsTests holds the catalog's texts).
    @Test func theWordsNameNoWatcherNorProtocol() {
        var f = DesktopFacts()
        let presence = ["logind", "org.gnome.ScreenSaver", "org.freedesktop.ScreenSaver", "org.gnome.Mutter.IdleMonitor",
                        "wayland ext_idle_notifier_v1", "wayland org_kde_kwin_idle"]
        f.timeAway = presence
        f.busy = ["PipeWire", "GNOME's session manager", "Plasma's PowerDevil", "iCare's GNOME Shell extension"]
        for words in f.capabilities.map(\.words) {
            for name in presence + ["ext_idle_notifier_v1", "org_kde_kwin_idle", "PowerDevil", "session manager", "GNOME Shell extension"] {
                #expect(!words.contains(name), "'\(words)' names \(name)")
            }
        }
        #expect(entry(f, .calls).words == "Sees calls, screen shares and full screen through PipeWire, GNOME, Plasma.")
        f.busy = ["iCare's GNOME Shell extension", "GNOME's session manager"]
        #expect(entry(f, .calls).words == "Sees calls, screen shares and full screen through GNOME.")
    }

    @Test func stillAskingForTheServer() {
        #expect(entry(DesktopFacts(), .buttons) == Capability(.buttons, .limited, "Still looking for the desktop's notification server."))
    }

    @Test func theRingSoundsAndPhones() {
        var f = DesktopFacts()
        #expect(entry(f, .ring).state == .missing)
        f.ring = .shellExtension
        #expect(entry(f, .ring).state == .works)
        f.ring = .off
        #expect(entry(f, .ring).state == .off)
        #expect(entry(f, .sounds).words == "Played by iCare.")
        f.soundPlayedBy = "none"
        #expect(entry(f, .sounds).state == .limited)
        f.sound = false
        #expect(entry(f, .sounds).state == .off)
        #expect(entry(f, .phones).state == .off)
        f.phoneReminders = true
        #expect(entry(f, .phones).state == .limited)
        f.phones = ["Pixel 7 (KDE Connect)"]
        #expect(entry(f, .phones) == Capability(.phones, .works, "Reminds Pixel 7 (KDE Connect)."))
    }

    @Test func loginAndTheSandbox() {
        var f = DesktopFacts()
        #expect(entry(f, .login).state == .limited && entry(f, .sandbox).state == .off)
        f.login = .flatpak(allowed: nil)
        f.sandbox = .flatpak
        f.sandboxLimits = ["autostart"]
        #expect(entry(f, .login) == Capability(.login, .limited, "Not asked yet: iCare's welcome asks the desktop to start it at login."))
        f.login = .flatpak(allowed: false)
        #expect(entry(f, .login).state == .missing)
        f.login = .flatpak(allowed: true)
        #expect(entry(f, .login).state == .works)
        f.login = .flatpak(allowed: false)
        #expect(entry(f, .sandbox) == Capability(.sandbox, .limited, "Inside the Flatpak's sandbox; not everything can work there."))
        f.login = .systemdUnit
        f.sandbox = .systemdUnit
        f.sandboxLimits = []
        #expect(entry(f, .sandbox).words == "Inside its systemd unit's sandbox; nothing iCare needs is held back.")
        #expect(entry(f, .login).words == "Started by systemd, as icared.service.")
    }
}
