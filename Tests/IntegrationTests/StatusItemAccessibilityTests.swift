import Testing
import Foundation
import TestSupport

/// The ring in words for screen readers: `IconAccessibleDesc` and
/// `AttentionAccessibleDesc`, which GNOME's AppIndicator extension reads
/// (again on `NewIcon` and `NewAttentionIcon`; without them it logs a JS
/// error per icon update) and gives the icon as its accessible name.
@Suite(.serialized) struct StatusItemAccessibilityTests {
    static func words(_ rig: DndBusRig, _ property: String = "IconAccessibleDesc") throws -> String? {
        try StatusItemTests.item(rig, property) as? String
    }

    @Test func theDescriptionSaysWhatTheRingShowsAndIsAnnouncedWithIt() throws {
        let rig = try DndBusRig(config: "Interval = 20m\nBreakDuration = 10s\n")
        let watcher = FakeWatcher()
        try rig.appear(watcher)
        try rig.service.start()
        #expect(try waitUntil(timeout: 5) { try StatusItemTests.registered(rig, watcher).count == 1 })
        #expect(try Self.words(rig) == "Next break in 20 minutes")
        #expect(try Self.words(rig, "AttentionAccessibleDesc") == "Next break in 20 minutes")
        let monitor = try BusMonitor(environment: rig.service.environment,
                                     match: ["--match=type='signal',interface='org.kde.StatusNotifierItem'"]) {
            try rig.service.busctl(["emit", "/probe", "org.kde.StatusNotifierItem", "Probe"])
        }
        // Paused for 30 min: the words change with the icon, and NewIcon says so.
        #expect(try rig.service.call("Pause", "u", "1800").status == 0)
        #expect(try waitUntil(timeout: 5) { try Self.words(rig)?.hasPrefix("Paused until ") == true })
        #expect(waitUntil(timeout: 5) { !monitor.signals("NewIcon").isEmpty })
        // A break: its seconds.
        #expect(try rig.service.call("StartBreak").status == 0)
        #expect(try waitUntil(timeout: 5) { try Self.words(rig) == "Break: 10 seconds left" })
        #expect(try waitUntil(timeout: 5) { try Self.words(rig) == "Break: 9 seconds left" }, "counted each second")
    }

    @Test func aDueBreakIsSaidInTheAttentionDescriptionInEnglishAndDutch() throws {
        for (environment, due, waiting) in [(["LANG": "C.UTF-8"], "Break due", "Next break in 1 minute"),
                                            (try TranslationTests.dutch(), "Pauze nu", "Volgende pauze over 1 minuut")] {
            // Time scale 900: the 15 min interval passes in one second.
            let rig = try DndBusRig(config: "Interval = 15m\n", environment: environment)
            let watcher = FakeWatcher()
            try rig.appear(watcher)
            try rig.service.start(arguments: ["--log-stderr", "--time-scale", "900"])
            #expect(try waitUntil(timeout: 5) { try StatusItemTests.registered(rig, watcher).count == 1 })
            #expect(try Self.words(rig) == waiting)
            let monitor = try BusMonitor(environment: rig.service.environment,
                                         match: ["--match=type='signal',interface='org.kde.StatusNotifierItem'"]) {
                try rig.service.busctl(["emit", "/probe", "org.kde.StatusNotifierItem", "Probe"])
            }
            #expect(try waitUntil(timeout: 10) { try rig.service.string("State") == "due" })
            #expect(try waitUntil(timeout: 5) { try Self.words(rig, "AttentionAccessibleDesc") == due })
            #expect(try Self.words(rig) == due)
            #expect(waitUntil(timeout: 5) { !monitor.signals("NewAttentionIcon").isEmpty })
        }
    }
}
