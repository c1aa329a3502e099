import Testing
import Foundation
import DBusKit
import TestSupport
import LoopSupport

/// Issue 29, item 3: each desktop's keys act on that desktop only. The real
/// `icared` on a private bus with the real dconf service (written by the real
/// `gsettings` and `dconf`), `XDG_CURRENT_DESKTOP` as each session sets it,
/// and the desktop's shell played by a program owning its name (for Plasma,
/// a notification server of Plasma 6.3.6's exact shape). What icared does is
/// read through its bus interface and its log only.
@Suite(.serialized) struct DesktopInUseServiceTests {
    static let breakReminders = "/org/gnome/desktop/break-reminders/selected-breaks"

    /// GNOME left in do-not-disturb, with its eyesight breaks on and its event sounds off, as a GNOME session leaves dconf.
    static func leaveGnomeSettings(_ rig: DndDconfRig) throws {
        try rig.gsettings("set", "org.gnome.desktop.notifications", "show-banners", "false")
        try rig.gsettings("set", "org.gnome.desktop.sound", "event-sounds", "false")
        let r = try Subprocess.run(["dconf", "write", breakReminders, "['eyesight']"], environment: rig.service.environment)
        guard r.status == 0 else { throw HarnessError("dconf write failed: \(r)") }
    }

    static func lines(_ log: String, containing words: String) -> [String] {
        log.split(separator: "\n").map(String.init).filter { $0.contains(words) }
    }

    @Test func plasmaIsNotPausedByGnomesDoNotDisturbNorTouchedByItsBreaksAndSounds() throws {
        let rig = try DndDconfRig(desktop: "KDE", shells: ["org.kde.plasmashell"])
        defer { rig.stop() }
        let plasma = PlasmaNotifications()
        try plasma.appear(on: rig.desktop, address: rig.service.bus.address)
        try Self.leaveGnomeSettings(rig)
        let s = rig.service
        try s.start()
        #expect(waitUntil(timeout: 3) { s.log.contains("Desktop: kde (XDG_CURRENT_DESKTOP=KDE).") }, "log:\n\(s.log)")
        // A moment for a wrong pause to come (the first look is over before the name is taken).
        Thread.sleep(forTimeInterval: 0.5)
        #expect(try s.string("State") == "waiting", "log:\n\(s.log)")
        #expect(try s.property("DoNotDisturb") == "b false")
        #expect(try s.property("DesktopEyeBreaks") == "b false")
        #expect(try s.string("SoundPlayedBy") != "none", "GNOME's event-sounds switch acted on Plasma; log:\n\(s.log)")
        // Only what is there is named: no GNOME, Cinnamon or MATE.
        #expect(Self.lines(s.log, containing: "Do-not-disturb:").allSatisfy { !$0.contains("gnome") && !$0.contains("cinnamon") && !$0.contains("mate") },
                "log:\n\(s.log)")
        #expect(!s.log.contains("eyesight breaks are on as well"), "log:\n\(s.log)")

        // Plasma's own switch still pauses.
        try rig.desktop.sync { plasma.setInhibited(true) }
        #expect(try waitUntil(timeout: 5) { try s.string("State") == "paused" }, "log:\n\(s.log)")
        #expect(try s.string("DoNotDisturbSource") == "kde")
        #expect(s.log.contains("Do-not-disturb: kde found."), "log:\n\(s.log)")
    }

    @Test func gnomeStillObeysItsKeysAndTheLogNamesNoOtherDesktop() throws {
        let rig = try DndDconfRig(desktop: "ubuntu:GNOME")
        defer { rig.stop() }
        try Self.leaveGnomeSettings(rig)
        let s = rig.service
        try s.start()
        #expect(try waitUntil(timeout: 2) { try s.string("State") == "paused" }, "log:\n\(s.log)")
        #expect(try s.string("DoNotDisturbSource") == "gnome")
        #expect(try waitUntil(timeout: 5) { try s.property("DesktopEyeBreaks") == "b true" }, "log:\n\(s.log)")
        #expect(try s.string("SoundPlayedBy") == "none", "log:\n\(s.log)")
        #expect(s.log.contains("Do-not-disturb: gnome found."), "log:\n\(s.log)")
        #expect(!s.log.contains("cinnamon found") && !s.log.contains("mate found") && !s.log.contains("kde found"), "log:\n\(s.log)")
        #expect(s.log.contains("Desktop: gnome (XDG_CURRENT_DESKTOP=ubuntu:GNOME)."), "log:\n\(s.log)")
    }

    /// A terminal or ssh session with its own bus keeps the GNOME session's XDG_CURRENT_DESKTOP, but no GNOME Shell is on that bus.
    @Test func gnomeNamedWithoutItsShellOnTheBusIsNotObeyed() throws {
        let rig = try DndDconfRig(desktop: "GNOME", shells: [])
        defer { rig.stop() }
        try Self.leaveGnomeSettings(rig)
        let s = rig.service
        try s.start()
        Thread.sleep(forTimeInterval: 0.5)
        #expect(try s.string("State") == "waiting", "log:\n\(s.log)")
        #expect(try s.property("DesktopEyeBreaks") == "b false")
        #expect(!s.log.contains("Do-not-disturb: gnome found."), "log:\n\(s.log)")
    }

    /// Nothing named (a bare compositor, ssh): the desktop whose shell is on the bus, while it is.
    @Test func withNoDesktopNamedTheShellOnTheBusDecides() throws {
        let rig = try DndDconfRig(desktop: "", shells: [])
        defer { rig.stop() }
        try Self.leaveGnomeSettings(rig)
        let s = rig.service
        try s.start()
        Thread.sleep(forTimeInterval: 0.5)
        #expect(try s.string("State") == "waiting", "nothing from dconf without a shell; log:\n\(s.log)")
        #expect(!s.log.contains("cinnamon found") && !s.log.contains("mate found") && !s.log.contains("gnome found"), "log:\n\(s.log)")

        let shell = FakeBusProgram(busName: "org.gnome.Shell")
        try shell.appear(on: rig.desktop, address: s.bus.address)
        #expect(try waitUntil(timeout: 5) { try s.string("State") == "paused" }, "log:\n\(s.log)")
        #expect(try s.string("DoNotDisturbSource") == "gnome")
        #expect(s.log.contains("Desktop: gnome is in use (org.gnome.Shell on the bus)."), "log:\n\(s.log)")
        try rig.desktop.sync { shell.vanish() }
        #expect(try waitUntil(timeout: 5) { try s.string("State") == "waiting" }, "log:\n\(s.log)")
    }

    /// Measured on GNOME 48: a break taken by going idle goes 4 → 2 → 1 with a new end, never 3.
    @Test func aGnomeBreakTakenByGoingIdleIsARest() throws {
        let now = UInt64(Date().timeIntervalSince1970)
        let screenTime = FakeScreenTime(state: 4, lastBreakEnd: now - 1200)
        let rig = try DndDconfRig(desktop: "GNOME", shells: [])
        defer { rig.stop() }
        try screenTime.appear(on: rig.desktop, address: rig.service.bus.address)
        let s = rig.service
        try s.start()
        #expect(waitUntil { s.log.contains("GNOME Shell's break manager is on the session bus") }, "log:\n\(s.log)")
        #expect(try s.number("CompletedToday") == 0)
        try rig.desktop.sync { screenTime.set(state: 2, lastBreakEnd: now - 1200) }
        Thread.sleep(forTimeInterval: 1.1)
        let back = UInt64(Date().timeIntervalSince1970)
        try rig.desktop.sync { screenTime.set(state: 1, lastBreakEnd: back) }
        #expect(try waitUntil { try s.number("CompletedToday") == 1 }, "log:\n\(s.log)")
        #expect(try s.number("NextBreak") >= back * 1_000_000 + 19 * 60 * 1_000_000)
        #expect(s.log.contains("GNOME's own break was taken ("), "log:\n\(s.log)")
    }
}

/// Plasma 6.3.6's notification server as plasmashell serves it (docs/desktop-facts.md):
/// its GetServerInformation and capabilities, and `Inhibited` with `PropertiesChanged`.
final class PlasmaNotifications: FakeBusProgram {
    static let path = "/org/freedesktop/Notifications"
    static let interface = "org.freedesktop.Notifications"
    static let capabilities = ["body", "body-hyperlinks", "body-markup", "body-images", "icon-static", "actions", "persistence",
                               "inline-reply", "x-kde-urls", "x-kde-origin-name", "x-kde-display-appname", "inhibitions"]
    private var inhibited = false

    init() { super.init(busName: "org.freedesktop.Notifications") }

    override func makeObjects() -> [ExportedObject] {
        [ExportedObject(path: ObjectPath(Self.path), interfaces: [
            Interface(Self.interface, doc: "Desktop notifications.", methods: [
                Method("GetCapabilities", out: [Argument("capabilities", "as")], doc: "Capabilities.") { _ in [.strings(Self.capabilities)] },
                Method("GetServerInformation", out: [Argument("name", "s"), Argument("vendor", "s"), Argument("version", "s"),
                                                     Argument("spec_version", "s")],
                       doc: "Who serves.") { _ in [.string("Plasma"), .string("KDE"), .string("6.3.6"), .string("1.2")] },
                Method("Notify", in: [Argument("app_name", "s"), Argument("replaces_id", "u"), Argument("app_icon", "s"), Argument("summary", "s"),
                                      Argument("body", "s"), Argument("actions", "as"), Argument("hints", "a{sv}"), Argument("expire_timeout", "i")],
                       out: [Argument("id", "u")], doc: "Shows one.") { _ in [.uint32(1)] },
                Method("CloseNotification", in: [Argument("id", "u")], doc: "Closes one.") { _ in [] },
            ], properties: [
                Property("Inhibited", "b", doc: "Whether notifications are inhibited.", read: { [unowned self] in .bool(inhibited) }),
            ], signals: [
                SignalDescription("NotificationClosed", [Argument("id", "u"), Argument("reason", "u")], doc: "Closed."),
                SignalDescription("ActionInvoked", [Argument("id", "u"), Argument("action_key", "s")], doc: "Clicked."),
            ]),
        ])]
    }

    /// What Plasma's do-not-disturb switch (an `Inhibit`) does on the bus.
    func setInhibited(_ on: Bool) {
        inhibited = on
        object(Self.path)?.emitPropertiesChanged(InterfaceName(Self.interface), ["Inhibited"])
    }
}
