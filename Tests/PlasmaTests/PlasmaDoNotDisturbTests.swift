import Testing
import Foundation
import TestSupport

/// Plasma's do-not-disturb, switched the ways a person's desktop switches it,
/// pausing and resuming the installed icared: another program holding
/// `Inhibit()` (a video player, a presentation) until it quits, and Plasma's
/// own "toggle do not disturb" shortcut through kglobalaccel.
@Suite(.serialized) struct PlasmaDoNotDisturbTests {
    /// Another program: it asks plasmashell not to disturb and keeps its connection until it is killed.
    static let inhibitor = """
    from gi.repository import Gio, GLib
    bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
    reply = bus.call_sync('org.freedesktop.Notifications', '/org/freedesktop/Notifications', 'org.freedesktop.Notifications',
                          'Inhibit', GLib.Variant('(ssa{sv})', ('vlc', 'Playing a film', {})), None, 0, -1, None)
    print(reply.unpack()[0], flush=True)
    GLib.MainLoop().run()
    """

    static func inhibited(_ desk: PlasmaDesktop) throws -> String {
        try desk.plasma.busctl(["get-property", "org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                                "org.freedesktop.Notifications", "Inhibited"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func paused(_ desk: PlasmaDesktop) throws -> Bool {
        try desk.state(becomes: "paused") && desk.service.string("PauseReason") == "dnd"
            && desk.service.string("DoNotDisturbSource") == "kde" && desk.service.property("DoNotDisturb") == "b true"
    }

    static func resumed(_ desk: PlasmaDesktop) throws -> Bool {
        try desk.state(becomes: "waiting") && desk.service.property("DoNotDisturb") == "b false"
    }

    /// Plasma's own switch: the shortcut as a keypress would invoke it (kglobalaccel's invokeShortcut).
    static func toggle(_ desk: PlasmaDesktop) throws {
        let component = ["org.kde.kglobalaccel", "/component/plasmashell", "org.kde.kglobalaccel.Component"]
        let registered = try waitUntil(timeout: 15, interval: 0.2) {
            try desk.plasma.busctl(["call"] + component + ["shortcutNames"]).stdout.contains("\"toggle do not disturb\"")
        }
        guard registered else { throw HarnessError("plasmashell registered no \"toggle do not disturb\" shortcut") }
        let r = try desk.plasma.busctl(["call"] + component + ["invokeShortcut", "s", "toggle do not disturb"])
        guard r.status == 0 else { throw HarnessError("invokeShortcut: \(r)") }
    }

    @Test(arguments: HeadlessPlasma.Session.allCases)
    func anotherProgramsInhibitionAndPlasmasShortcutPauseAndResume(_ session: HeadlessPlasma.Session) throws {
        let desk = try PlasmaDesktop(session)
        defer { desk.stop() }
        try desk.service.start()
        #expect(try desk.state(becomes: "waiting"))
        #expect(try Self.inhibited(desk) == "b false")

        // A program inhibits notifications: Plasma's do-not-disturb is on, icared pauses.
        let program = try desk.plasma.start(["/usr/bin/python3", "-c", Self.inhibitor], log: "inhibitor.log")
        #expect(try waitUntil(timeout: 10) { try Self.inhibited(desk) == "b true" }, "\(desk.plasma.log("inhibitor.log"))")
        #expect(try Self.paused(desk), "icared did not pause for the inhibition: \(desk.service.log)")

        // It quits: its inhibition ends with its connection, icared resumes.
        Subprocess.kill9(program)
        #expect(try waitUntil(timeout: 10) { try Self.inhibited(desk) == "b false" })
        #expect(try Self.resumed(desk), "icared did not resume when the inhibition ended: \(desk.service.log)")

        // Plasma's shortcut turns do-not-disturb on, then off.
        try Self.toggle(desk)
        #expect(try waitUntil(timeout: 10) { try Self.inhibited(desk) == "b true" })
        #expect(try Self.paused(desk), "icared did not pause for Plasma's switch: \(desk.service.log)")
        try Self.toggle(desk)
        #expect(try waitUntil(timeout: 10) { try Self.inhibited(desk) == "b false" })
        #expect(try Self.resumed(desk), "icared did not resume when Plasma's switch went off: \(desk.service.log)")
    }
}
