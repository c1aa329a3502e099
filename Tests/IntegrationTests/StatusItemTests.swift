import Testing
import Foundation
import DBusKit
import TestSupport
import LoopSupport

/// The real icared's status item against a watcher of the exact spec shape
/// (`FakeWatcher`), read and clicked with busctl like a panel would.
@Suite(.serialized) struct StatusItemTests {
    /// The item's bus name for the running icared: the unique name of the connection it lives on.
    static func itemName(_ rig: DndBusRig) throws -> String {
        guard let name = try rig.service.statusItemOwner() else { throw HarnessError("icared shows no status item") }
        return name
    }

    static func hasOwner(_ rig: DndBusRig, _ name: String) throws -> Bool {
        try rig.service.busctl(["call", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                "NameHasOwner", "s", name]).stdout.contains("true")
    }

    /// A property of the item as busctl's JSON `data`.
    static func item(_ rig: DndBusRig, _ property: String) throws -> Any? {
        let r = try rig.service.busctl(["get-property", "--json=short", itemName(rig), "/StatusNotifierItem",
                                        "org.kde.StatusNotifierItem", property])
        guard r.status == 0 else { throw HarnessError("get-property \(property): \(r)") }
        let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        return json?["data"]
    }

    static func click(_ rig: DndBusRig, _ id: Int) throws {
        let r = try rig.service.busctl(["call", itemName(rig), "/StatusNotifierItem/Menu", "com.canonical.dbusmenu",
                                        "Event", "isvu", String(id), "clicked", "s", "", "0"])
        guard r.status == 0 else { throw HarnessError("Event \(id): \(r)") }
    }

    static func registered(_ rig: DndBusRig, _ watcher: FakeWatcher) throws -> [String] {
        try rig.sync { watcher.items }
    }

    @Test func registersWithTheWatcherAndAgainAfterItRestarts() throws {
        let rig = try DndBusRig()
        try rig.service.start()
        // No watcher: nothing exported, no connection for the item.
        Thread.sleep(forTimeInterval: 0.3)
        #expect(try rig.service.statusItemOwner() == nil)
        let introspect = try rig.service.busctl(["introspect", "org.icare.Reminder", "/StatusNotifierItem"])
        #expect(introspect.status != 0, "no object without a watcher: \(introspect)")

        let watcher = FakeWatcher()
        try rig.appear(watcher)
        // Registered by its path: the watcher knows it by its connection's unique name.
        #expect(try waitUntil(timeout: 5) { try Self.registered(rig, watcher).count == 1 })
        let name = try Self.itemName(rig)
        #expect(try Self.registered(rig, watcher) == [name + "/StatusNotifierItem"])

        // The watcher restarts: it forgets the item, icared shows it again (on a new connection) and registers it.
        try rig.sync { watcher.vanish() }
        #expect(try waitUntil(timeout: 5) { try !Self.hasOwner(rig, name) })
        try rig.appear(watcher)
        #expect(try waitUntil(timeout: 5) { try Self.registered(rig, watcher).count == 1 })
        let again = try Self.itemName(rig)
        #expect(try Self.registered(rig, watcher) == [again + "/StatusNotifierItem"])
        #expect(try rig.sync { watcher.calls } == ["/StatusNotifierItem", "/StatusNotifierItem"])

        // The watcher goes for good: icared takes the item away.
        try rig.sync { watcher.vanish() }
        #expect(try waitUntil(timeout: 5) { try !Self.hasOwner(rig, again) })
        #expect(try rig.service.busctl(["introspect", "org.icare.Reminder", "/StatusNotifierItem"]).status != 0)
    }

    @Test func propertiesShowTheRingAndTheStatus() throws {
        let rig = try DndBusRig()
        let watcher = FakeWatcher()
        try rig.appear(watcher)
        try rig.service.start()
        let name = try Self.itemName(rig)
        #expect(try waitUntil(timeout: 5) { try Self.registered(rig, watcher) == [name + "/StatusNotifierItem"] })

        #expect(try Self.item(rig, "Status") as? String == "Active")
        #expect(try Self.item(rig, "Id") as? String == "icare")
        #expect(try Self.item(rig, "Category") as? String == "ApplicationStatus")
        #expect(try Self.item(rig, "Menu") as? String == "/StatusNotifierItem/Menu")
        // No theme icon while the ring is drawn: hosts would draw the installed eye instead of IconPixmap.
        #expect(try Self.item(rig, "IconName") as? String == "")
        #expect(try Self.item(rig, "AttentionIconName") as? String == "")
        #expect(try Self.item(rig, "XAyatanaLabel") as? String == "20 min")
        let tip = try Self.item(rig, "ToolTip") as? [Any]
        #expect((tip?[3] as? String)?.hasPrefix("Next break at ") == true, "\(String(describing: tip))")
        #expect((tip?[3] as? String)?.hasSuffix("0 completed, 0 skipped today") == true)

        // Five sizes, ARGB32 in network byte order: a pixel inside the full blue ring of a fresh wait.
        let pixmaps = try #require(Self.item(rig, "IconPixmap") as? [[Any]])
        #expect(pixmaps.map { $0[0] as? Int } == [16, 22, 24, 32, 48])
        let big = try #require(pixmaps.last)
        let bytes = try #require(big[2] as? [Int])
        #expect(bytes.count == 48 * 48 * 4)
        let i = (14 * 48 + 44) * 4
        #expect(Array(bytes[i..<i + 4]) == [0xFF, 0x35, 0x84, 0xE4])
        // Nine o'clock too: the whole ring is filled at the start of a wait.
        let j = (24 * 48 + 4) * 4
        #expect(Array(bytes[j..<j + 4]) == [0xFF, 0x35, 0x84, 0xE4])
    }

    @Test func aLeftClickWhenNothingIsDueSaysTheStatusWhereNoServerShowsIt() throws {
        let rig = try DndBusRig()
        let watcher = FakeWatcher()
        try rig.appear(watcher)
        try rig.service.start()
        #expect(try waitUntil(timeout: 5) { try Self.registered(rig, watcher).count == 1 })
        // No notification server: the status goes to the log (each click), and the state stays.
        for n in 1...2 {
            let r = try rig.service.busctl(["call", Self.itemName(rig), "/StatusNotifierItem", "org.kde.StatusNotifierItem",
                                            "Activate", "ii", "0", "0"])
            #expect(r.status == 0, "\(r)")
            #expect(waitUntil(timeout: 5) {
                rig.service.log.components(separatedBy: " · Today: 0 completed, 0 skipped\n")
                    .dropLast().filter { $0.contains("Next break at ") }.count == n
            }, "\(rig.service.log)")
        }
        #expect(try rig.service.string("State") == "waiting")
    }

    @Test func theMenuControlsTheEngineAndWritesTheConfigFile() throws {
        let rig = try DndBusRig()
        let watcher = FakeWatcher()
        try rig.appear(watcher)
        try rig.service.start()
        let name = try Self.itemName(rig)
        #expect(try waitUntil(timeout: 5) { try Self.registered(rig, watcher).count == 1 })

        let layout = try rig.service.busctl(["--json=short", "call", "--", name, "/StatusNotifierItem/Menu", "com.canonical.dbusmenu",
                                             "GetLayout", "iias", "0", "-1", "0"])
        #expect(layout.status == 0, "\(layout)")
        for label in ["Start break now", "Snooze 5 min", "Pause for 30 min", "Pause for 1 hour", "Pause until resumed",
                      "Resume", "Today: 0 completed, 0 skipped", "Weekdays only", "Sound", "Break every", "30 min", "Break length"] {
            #expect(layout.stdout.contains("\"\(label)\""), "GetLayout lacks \(label)")
        }

        let monitor = try BusMonitor(environment: rig.service.environment,
                                     match: ["--match=type='signal',interface='org.kde.StatusNotifierItem'",
                                             "--match=type='signal',interface='com.canonical.dbusmenu'"]) {
            try rig.service.busctl(["emit", "/probe", "org.kde.StatusNotifierItem", "Probe"])
        }
        // Pause until resumed (7): the engine pauses, the icon and tooltip change, the menu items with them.
        try Self.click(rig, 7)
        #expect(try rig.service.string("State") == "paused")
        #expect(waitUntil(timeout: 5) {
            !monitor.signals("NewIcon").isEmpty && !monitor.signals("NewToolTip").isEmpty && !monitor.signals("ItemsPropertiesUpdated").isEmpty
        })
        let tip = try Self.item(rig, "ToolTip") as? [Any]
        #expect(tip?[3] as? String == "Paused")
        #expect(try Self.item(rig, "XAyatanaLabel") as? String == "")
        // Resume (8).
        try Self.click(rig, 8)
        #expect(try rig.service.string("State") == "waiting")

        // Interval 30 min (radio 123), sound off (16), DND policy "ignore" (172): through the engine and into the file.
        try Self.click(rig, 123)
        try Self.click(rig, 16)
        try Self.click(rig, 172)
        #expect(try rig.service.number("Interval") == 1800)
        #expect(try rig.service.property("Sound") == "b false")
        #expect(try rig.service.string("DndPolicy") == "ignore")
        let config = try String(contentsOfFile: rig.service.configDirectory + "/config", encoding: .utf8)
        #expect(config.contains("Interval") && config.contains("Sound") && config.contains("ignore"), "\(config)")
        #expect(try waitUntil(timeout: 5) { (try Self.item(rig, "XAyatanaLabel") as? String) == "30 min" })

        // A click on an unknown item is an error, not a crash.
        let bad = try rig.service.busctl(["call", name, "/StatusNotifierItem/Menu", "com.canonical.dbusmenu",
                                          "Event", "isvu", "9999", "clicked", "s", "", "0"])
        #expect(bad.status != 0)
        #expect(try rig.service.nameHasOwner())
    }

    @Test func theStatusItemSettingTurnsItOffAndOnAtOnce() throws {
        let rig = try DndBusRig(config: "StatusItem = false\n")
        let watcher = FakeWatcher()
        try rig.appear(watcher)
        try rig.service.start()
        #expect(try rig.service.property("StatusItem") == "b false")
        Thread.sleep(forTimeInterval: 0.3)
        #expect(try Self.registered(rig, watcher).isEmpty && rig.service.statusItemOwner() == nil)

        // On: registered at once.
        #expect(try rig.service.busctl(["set-property", "org.icare.Reminder", "/org/icare/Reminder", "org.icare.Reminder",
                                        "StatusItem", "b", "true"]).status == 0)
        #expect(try waitUntil(timeout: 5) { try Self.registered(rig, watcher).count == 1 })
        let name = try Self.itemName(rig)
        #expect(try Self.registered(rig, watcher) == [name + "/StatusNotifierItem"])
        // Off again: the item's connection closes, so the watcher drops the item; the file keeps the choice.
        #expect(try rig.service.busctl(["set-property", "org.icare.Reminder", "/org/icare/Reminder", "org.icare.Reminder",
                                        "StatusItem", "b", "false"]).status == 0)
        #expect(try waitUntil(timeout: 5) { try Self.registered(rig, watcher).isEmpty })
        #expect(try !Self.hasOwner(rig, name))
        #expect(try rig.service.busctl(["introspect", "org.icare.Reminder", "/StatusNotifierItem"]).status != 0)
        let config = try String(contentsOfFile: rig.service.configDirectory + "/config", encoding: .utf8)
        #expect(config.contains("StatusItem = false"), "\(config)")
    }

    static func pixel(_ rig: DndBusRig, x: Int, y: Int, of property: String = "IconPixmap") throws -> [Int] {
        let pixmaps = try #require(Self.item(rig, property) as? [[Any]])
        let bytes = try #require(pixmaps.last?[2] as? [Int])
        let i = (y * 48 + x) * 4
        return Array(bytes[i..<i + 4])
    }

    @Test func aDueBreakNeedsAttentionAndALeftClickStartsIt() throws {
        // Time scale 900: the 15 min interval passes in one second; the break keeps its real 30 s, long enough
        // for the checks below on a loaded machine.
        let rig = try DndBusRig(config: "Interval = 15m\nBreakDuration = 30s\n")
        let watcher = FakeWatcher()
        try rig.appear(watcher)
        try rig.service.start(arguments: ["--log-stderr", "--time-scale", "900"])
        #expect(try waitUntil(timeout: 5) { try Self.registered(rig, watcher).count == 1 })
        let monitor = try BusMonitor(environment: rig.service.environment,
                                     match: ["--match=type='signal',interface='org.kde.StatusNotifierItem'"]) {
            try rig.service.busctl(["emit", "/probe", "org.kde.StatusNotifierItem", "Probe"])
        }
        #expect(try waitUntil(timeout: 10) { try rig.service.string("State") == "due" })
        #expect(try waitUntil(timeout: 5) { (try Self.item(rig, "Status") as? String) == "NeedsAttention" })
        #expect(try Self.item(rig, "XAyatanaLabel") as? String == "Break due")
        #expect(((try Self.item(rig, "ToolTip") as? [Any])?[3] as? String)?.hasPrefix("Time for an eye break") == true)
        // The full orange ring with a dot in the middle.
        #expect(try Self.pixel(rig, x: 44, y: 14) == [0xFF, 0xE6, 0x61, 0x00])
        #expect(try Self.pixel(rig, x: 24, y: 24) == [0xFF, 0xE6, 0x61, 0x00])
        // Hosts draw the attention icon while the item needs attention (GNOME's AppIndicator only that one): the same ring.
        #expect(try Self.pixel(rig, x: 24, y: 24, of: "AttentionIconPixmap") == [0xFF, 0xE6, 0x61, 0x00])
        #expect(try Self.item(rig, "AttentionIconName") as? String == "")
        #expect(waitUntil(timeout: 5) { !monitor.signals("NewAttentionIcon").isEmpty })
        #expect(waitUntil(timeout: 5) { monitor.signals("NewStatus").contains { msg in
            ((msg["payload"] as? [String: Any])?["data"] as? [Any])?.first as? String == "NeedsAttention" } })

        // A left click (Activate) starts the break: the green countdown ring, counted in seconds.
        let r = try rig.service.busctl(["call", Self.itemName(rig), "/StatusNotifierItem", "org.kde.StatusNotifierItem",
                                        "Activate", "ii", "0", "0"])
        #expect(r.status == 0, "\(r)")
        #expect(try rig.service.string("State") == "break")
        #expect(try Self.item(rig, "Status") as? String == "Active")
        #expect(try Self.pixel(rig, x: 44, y: 14) == [0xFF, 0x2E, 0xC2, 0x7E])
        let first = try #require(Self.item(rig, "XAyatanaLabel") as? String)
        #expect(first.hasSuffix(" s"), "\(first)")
        #expect(try waitUntil(timeout: 3) { (try Self.item(rig, "XAyatanaLabel") as? String) != first },
                "the label counts down each second")
        // A left click during the break does nothing harmful.
        _ = try rig.service.busctl(["call", Self.itemName(rig), "/StatusNotifierItem", "org.kde.StatusNotifierItem",
                                    "Activate", "ii", "0", "0"])
        #expect(try rig.service.string("State") == "break")
    }

    @Test func everyMenuItemDoesWhatItSays() throws {
        // Time scale 90: the 15 min interval passes in 10 s.
        let rig = try DndBusRig(config: "Interval = 15m\nBreakDuration = 10s\n")
        let watcher = FakeWatcher()
        try rig.appear(watcher)
        try rig.service.start(arguments: ["--log-stderr", "--time-scale", "90"])
        #expect(try waitUntil(timeout: 5) { try Self.registered(rig, watcher).count == 1 })
        let s = rig.service
        func state() throws -> String { try s.string("State") }

        try Self.click(rig, 1)                          // Start break now
        #expect(try state() == "break")
        try Self.click(rig, 3)                          // Skip this break
        #expect(try state() == "waiting")
        #expect(try s.number("SkippedToday") == 1)
        try Self.click(rig, 5)                          // Pause for 30 min
        #expect(try state() == "paused" && s.number("PausedUntil") > 0)
        try Self.click(rig, 8)                          // Resume
        #expect(try state() == "waiting")
        try Self.click(rig, 6)                          // Pause for 1 hour
        #expect(try state() == "paused" && s.number("PausedUntil") > 0)
        try Self.click(rig, 8)
        try Self.click(rig, 7)                          // Pause until resumed
        #expect(try state() == "paused" && s.number("PausedUntil") == 0)
        try Self.click(rig, 8)
        #expect(try waitUntil(timeout: 15, interval: 0.1) { try state() == "due" })
        try Self.click(rig, 2)                          // Snooze 5 min
        #expect(try state() == "snoozed")
        // A disabled item (Resume while not paused) changes nothing.
        try Self.click(rig, 8)
        #expect(try state() == "snoozed")

        let settings: [(Int, String, String)] = [
            (120, "Interval", "u 900"), (121, "Interval", "u 1200"), (122, "Interval", "u 1500"), (123, "Interval", "u 1800"),
            (124, "Interval", "u 2700"), (130, "BreakDuration", "u 10"), (131, "BreakDuration", "u 20"), (132, "BreakDuration", "u 30"),
            (140, "SnoozeDuration", "u 300"), (141, "SnoozeDuration", "u 600"), (142, "SnoozeDuration", "u 900"),
            (15, "WeekdaysOnly", "b true"), (15, "WeekdaysOnly", "b false"), (16, "Sound", "b false"), (16, "Sound", "b true"),
            (170, "DndPolicy", "s \"pause\""), (171, "DndPolicy", "s \"defer\""), (172, "DndPolicy", "s \"ignore\""),
        ]
        for (id, property, value) in settings {
            try Self.click(rig, id)
            #expect(try s.property(property) == value, "menu item \(id)")
        }
        let config = try String(contentsOfFile: s.configDirectory + "/config", encoding: .utf8)
        for line in ["Interval = 45m", "BreakDuration = 30s", "SnoozeDuration = 15m", "WeekdaysOnly = false", "Sound = true", "DndPolicy = ignore"] {
            #expect(config.split(separator: "\n").contains { $0 == line }, "config lacks \(line): \(config)")
        }
    }
}
