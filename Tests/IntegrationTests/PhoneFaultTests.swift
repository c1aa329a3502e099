import Testing
import Foundation
import TestSupport

/// A ping KDE Connect refuses: said once in the log, tried again with the next reminder, and the
/// desktop's reminders go out as always. KDE Connect is python3-dbusmock with kdeconnectd 22.12's shape
/// for what icared calls (docs/desktop-facts.md, "Phones: KDE Connect": `deviceNames(bb)` → `a{ss}`,
/// the device's `loadedPlugins()` → `as`, `sendPing(s)` on `…/ping`), its `sendPing` failing with an
/// error, as a real one does for a phone that went in the moment before.
@Suite(.serialized) struct PhoneFaultTests {
    static let device = "0123456789abcdef0123456789abcdef"

    static func template(in directory: URL) throws -> String {
        let file = directory.appendingPathComponent("refusing_kdeconnect.py")
        try """
        import dbus
        BUS_NAME = 'org.kde.kdeconnect'
        MAIN_OBJ = '/modules/kdeconnect'
        MAIN_IFACE = 'org.kde.kdeconnect.daemon'
        SYSTEM_BUS = False

        def load(mock, parameters):
            mock.AddMethod(MAIN_IFACE, 'deviceNames', 'bb', 'a{ss}',
                           "ret = dbus.Dictionary({'\(device)': 'Pixel 7'}, signature='ss')")
            mock.AddObject('/modules/kdeconnect/devices/\(device)', 'org.kde.kdeconnect.device', {}, [
                ('loadedPlugins', '', 'as', "ret = dbus.Array(['kdeconnect_ping'], signature='s')"),
            ])
            mock.AddObject('/modules/kdeconnect/devices/\(device)/ping', 'org.kde.kdeconnect.device.ping', {}, [
                ('sendPing', 's', '', "raise dbus.exceptions.DBusException('No such object path', name='org.freedesktop.DBus.Error.UnknownObject')"),
            ])

        """.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    @Test func aRefusedPingIsSaidOnceAndTheRemindersStillGoOut() throws {
        let service = try ServiceHarness(config: "BreakDuration = 10s\nPhoneReminders = true\n", start: false)
        let server = try FakeNotificationServer(environment: service.bus.environment)
        defer {
            server.stop()
            service.stop()
        }
        try server.start()
        try FileManager.default.createDirectory(at: service.home, withIntermediateDirectories: true)
        let kde = try Subprocess.start(["/usr/bin/python3", "-m", "dbusmock", "--session", "--template", try Self.template(in: service.home)],
                                       environment: service.bus.environment)
        defer { Subprocess.kill9(kde) }
        #expect(try waitUntil(timeout: 10) { try service.busctl(["status", "org.kde.kdeconnect"]).status == 0 }, "the stand-in took its name")
        try service.start(arguments: ["--log-stderr", "--debug", "--time-scale", "300"])
        #expect(try waitUntil(timeout: 10) { try service.property("Phones") == "as 1 \"Pixel 7 (KDE Connect)\"" }, "log:\n\(service.log)")
        // Two reminders: the first a scaled interval after the start, the second after a Skip.
        #expect(waitUntil(timeout: 15) { server.iCareNotifies.contains { $0.actions.contains("start") } }, "\(server.dump)")
        let skip = try Subprocess.run([try Products.path("icarectl"), "skip"], environment: service.environment)
        #expect(skip.status == 0, "\(skip)")
        #expect(waitUntil(timeout: 15) { server.iCareNotifies.filter { $0.actions.contains("start") }.count >= 2 }, "\(server.dump)")
        let tried = try waitUntil(timeout: 5) {
            try service.busctl(["call", "org.kde.kdeconnect", "/modules/kdeconnect/devices/\(Self.device)/ping",
                                "org.freedesktop.DBus.Mock", "GetMethodCalls", "s", "sendPing"]).stdout.hasPrefix("a(tav) 2 ")
        }
        #expect(tried, "a ping for each reminder")
        let refusals = service.log.components(separatedBy: "a ping to Pixel 7 was refused").count - 1
        #expect(refusals == 1, "said once: \(service.log)")
        #expect(service.log.contains("the desktop's reminder still goes out"))
        #expect(try service.string("State") == "due", "the second reminder is out")
    }
}
