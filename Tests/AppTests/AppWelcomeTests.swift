import Testing
import Foundation
import TestSupport

/// The first start's notice opens the real app (issue 47, item 2): a fresh home, icared under its unit's
/// sandbox, a notification server that records and clicks (notification-recorder.py), and the app's
/// activation file on the bus as `make install` puts it. "Open iCare" is clicked as the server reports a
/// click (with its activation token); the window then appears in the accessibility tree, started by the
/// bus, not by icared.
@Suite(.serialized) struct AppWelcomeTests {
    @Test func openICareOnTheFirstStartsNoticeOpensTheWindowByTheBus() throws {
        let services = FileManager.default.temporaryDirectory.appendingPathComponent("icare-services-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: services, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: services) }
        let bus = try PrivateBus(serviceDirectory: services.path)
        let rig = try AppRig(startService: false, bus: bus, startApp: false, firstStart: true)
        defer { rig.stop() }
        let recorder = try NotificationRecorder(busAddress: bus.address, networkOf: nil, errors: rig.work.appendingPathComponent("recorder.log"))
        defer { recorder.stop() }
        // The bus's child, not the rig's: ended here, before the rig.
        defer { if let app = try? rig.service.ownerProcess(of: "org.icare.Reminder.Window") { kill(app, SIGKILL) } }
        let template = try String(contentsOf: ServiceHarness.repo.appendingPathComponent("dbus/org.icare.Reminder.Window.service.in"),
                                  encoding: .utf8)
        let file = try template.replacingOccurrences(of: "Exec=@bindir@/icare", with: "Exec=" + rig.appCommand())
        #expect(file.contains("Name=org.icare.Reminder.Window\n") && !file.contains("@bindir@"), "\(file)")
        try file.write(to: services.appendingPathComponent("org.icare.Reminder.Window.service"), atomically: true, encoding: .utf8)

        try rig.service.start()
        var welcome: RecordedNotification?
        _ = waitUntil(timeout: 10) {
            welcome = recorder.iCareNotifies.first { $0.summary == "iCare is on" }
            return welcome != nil
        }
        let notice = try #require(welcome, "no first-start notice: \(recorder.dump)\nicared:\n\(rig.service.log)")
        #expect(notice.actions == ["open", "Open iCare"], "\(notice.actions)")
        let hasOwner = ["call", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner", "s",
                        "org.icare.Reminder.Window"]
        #expect(try rig.service.busctl(hasOwner).stdout == "b false\n", "no window before the click")

        try recorder.click(UInt32(notice.id), "open", activationToken: "token-of-the-click")
        let home = try rig.waitForHome(timeout: 20, "the window the bus opened") { $0.contains { $0.name.hasPrefix("Next break at ") } }
        #expect(home.first?.name == "iCare")
        let app = try #require(try rig.service.ownerProcess(of: "org.icare.Reminder.Window"))
        let icared = try #require(rig.service.process?.processIdentifier)
        #expect(!Subprocess.ancestors(of: app).contains(icared), "never icared's child: \(Subprocess.ancestors(of: app))")
        #expect(app != rig.app?.processIdentifier && rig.app == nil, "the rig started no app")
        #expect(rig.service.log.contains("Opened iCare's window."), "icared:\n\(rig.service.log)")
    }
}
