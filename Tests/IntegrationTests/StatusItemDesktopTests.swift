import Testing
import Foundation
import TestSupport
import LoopSupport

/// The ring reads what iCare can see (`Capabilities`): while something a person would expect is missing
/// here, the panel item's menu says "iCare cannot see everything here…", and a click opens the app on its
/// page "This desktop" (ActivateAction `desktop` on org.icare.Reminder.Window, which the bus starts).
@Suite(.serialized) struct StatusItemDesktopTests {
    @Test func whatICareCannotSeeOpensTheAppsDesktopPage() throws {
        let app = try FakeApp()
        defer { app.stop() }
        let rig = try DndBusRig(bus: try PrivateBus(serviceDirectory: app.services.path))
        let watcher = FakeWatcher()
        try rig.appear(watcher)
        // No notification server on this bus: the reminder's buttons are missing.
        try rig.service.start()
        #expect(try waitUntil(timeout: 5) { try StatusItemTests.registered(rig, watcher).count == 1 })
        var items: [Int: [String: Any]] = [:]
        let shown = try waitUntil(timeout: 10) {
            items = try StatusMenuUpdateTests.layout(rig)
            return items[22]?["label"] as? String == "iCare cannot see everything here…"
        }
        #expect(shown, "\(items.mapValues { $0["label"] ?? "" })")
        #expect(try rig.service.busctl(["get-property", "org.icare.Reminder", "/org/icare/Reminder", "org.icare.Reminder",
                                        "Capabilities"]).stdout.contains("\"reminder-buttons\" \"missing\""))
        try StatusItemTests.click(rig, 22)
        #expect(waitUntil { app.activations.contains { $0["action"] as? String == "desktop" } },
                "\(app.activations)\nlog:\n\(rig.service.log)")
        #expect(waitUntil { rig.service.log.contains("Opened iCare's window.") }, "log:\n\(rig.service.log)")
    }
}
