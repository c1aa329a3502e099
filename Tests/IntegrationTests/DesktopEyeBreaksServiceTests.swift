import Testing
import Foundation
import TestSupport

/// GNOME 48's own eyesight breaks, written with the real `dconf write` to the
/// real dconf service (Debian 12's schemas lack the keys; dconf needs none),
/// seen by the real icared through `DesktopEyeBreaks`, its log and `icarectl status`.
@Suite(.serialized) struct DesktopEyeBreaksServiceTests {
    static let key = "/org/gnome/desktop/break-reminders/selected-breaks"

    func dconfWrite(_ rig: DndDconfRig, _ value: String) throws {
        let r = try Subprocess.run(["dconf", "write", Self.key, value], environment: rig.service.environment)
        guard r.status == 0 else { throw HarnessError("dconf write failed: \(r)") }
    }

    @Test func gnomeEyesightBreaksAreShownAndSaidOnce() throws {
        let rig = try DndDconfRig()
        defer { rig.stop() }
        let s = rig.service
        try s.start()
        #expect(try s.property("DesktopEyeBreaks") == "b false")
        let monitor = try BusMonitor(environment: s.environment) { _ = try s.property("State") }
        defer { monitor.stop() }

        try dconfWrite(rig, "['movement', 'eyesight']")
        #expect(try waitUntil(timeout: 10) { try s.property("DesktopEyeBreaks") == "b true" }, "log:\n\(s.log)")
        #expect(waitUntil { monitor.changedProperties.contains("DesktopEyeBreaks") })
        let status = try Subprocess.run([try Products.path("icarectl"), "status"], environment: s.environment)
        #expect(status.stdout.contains("GNOME breaks:"), "\(status)")
        #expect(status.stdout.contains("eyesight breaks are on too; keep one"), "\(status)")

        try dconfWrite(rig, "['movement']")
        #expect(try waitUntil(timeout: 10) { try s.property("DesktopEyeBreaks") == "b false" }, "log:\n\(s.log)")
        try dconfWrite(rig, "['eyesight']")
        #expect(try waitUntil(timeout: 10) { try s.property("DesktopEyeBreaks") == "b true" }, "log:\n\(s.log)")
        #expect(s.log.components(separatedBy: "GNOME's own eyesight breaks are on as well").count == 2, "said once:\n\(s.log)")
        #expect(s.log.contains("systemctl --user disable --now icared"))
        // Do-not-disturb, read from the same database, is untouched.
        #expect(try s.property("DoNotDisturb") == "b false")
    }
}
