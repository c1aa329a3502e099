import Testing
import Foundation
import TestSupport
import LoopSupport

/// The real icared's menu as the two big hosts read it: Plasma's
/// libdbusmenuqt applies only the properties present in a layout (so every
/// item must state `enabled`, `visible`, `type`, `label`), and GNOME's
/// AppIndicator extension learns of changed labels and enabled states only
/// through `ItemsPropertiesUpdated` (its `LayoutUpdated` handler re-reads
/// just `type` and `children-display`). Both shapes in docs/desktop-facts.md.
@Suite(.serialized) struct StatusMenuUpdateTests {
    /// The menu's items as `id → properties` (busctl's JSON `data` per value), from GetLayout.
    static func layout(_ rig: DndBusRig) throws -> [Int: [String: Any]] {
        let r = try rig.service.busctl(["--json=short", "call", "--", StatusItemTests.itemName(rig), "/StatusNotifierItem/Menu",
                                        "com.canonical.dbusmenu", "GetLayout", "iias", "0", "-1", "0"])
        guard r.status == 0, let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any],
              let data = json["data"] as? [Any], data.count == 2 else { throw HarnessError("GetLayout: \(r)") }
        var items: [Int: [String: Any]] = [:]
        func walk(_ node: Any?) {
            guard let n = node as? [Any], n.count == 3, let id = n[0] as? Int, let props = n[1] as? [String: Any] else { return }
            items[id] = props.mapValues { ($0 as? [String: Any])?["data"] as Any }
            for child in n[2] as? [Any] ?? [] { walk((child as? [String: Any])?["data"]) }
        }
        walk(data[1])
        return items
    }

    /// Every `ItemsPropertiesUpdated` seen so far, flattened in order: `(id, property, value)`.
    static func updates(_ monitor: BusMonitor) -> [(Int, String, Any)] {
        monitor.signals("ItemsPropertiesUpdated").flatMap { msg -> [(Int, String, Any)] in
            guard let data = (msg["payload"] as? [String: Any])?["data"] as? [Any],
                  let updated = data.first as? [[Any]] else { return [] }
            return updated.flatMap { entry -> [(Int, String, Any)] in
                guard entry.count == 2, let id = entry[0] as? Int, let props = entry[1] as? [String: Any] else { return [] }
                return props.map { (id, $0.key, ($0.value as? [String: Any])?["data"] as Any) }
            }
        }
    }

    static func announced(_ monitor: BusMonitor, _ id: Int, _ name: String, _ value: Bool) -> Bool {
        updates(monitor).contains { $0.0 == id && $0.1 == name && ($0.2 as? Bool) == value }
    }

    static func announced(_ monitor: BusMonitor, _ id: Int, label: String) -> Bool {
        updates(monitor).contains { $0.0 == id && $0.1 == "label" && ($0.2 as? String) == label }
    }

    @Test func everyItemStatesItsPropertiesAndChangesArriveInItemsPropertiesUpdated() throws {
        // Time scale 300: the 15 min interval passes in 3 s.
        let rig = try DndBusRig(config: "Interval = 15m\nBreakDuration = 10s\n")
        let watcher = FakeWatcher()
        try rig.appear(watcher)
        try rig.service.start(arguments: ["--log-stderr", "--time-scale", "300"])
        #expect(try waitUntil(timeout: 5) { try StatusItemTests.registered(rig, watcher).count == 1 })
        let monitor = try BusMonitor(environment: rig.service.environment,
                                     match: ["--match=type='signal',interface='com.canonical.dbusmenu'"]) {
            try rig.service.busctl(["emit", "/probe", "com.canonical.dbusmenu", "Probe"])
        }

        // Every item, the root and separators included, says whether it is enabled and shown, and what type it is.
        let first = try Self.layout(rig)
        #expect(first.count > 30, "\(first.keys.sorted())")
        for (id, props) in first {
            #expect(props["enabled"] is Bool && props["visible"] as? Bool == true && props["type"] is String, "item \(id): \(props)")
            if props["type"] as? String == "standard" && id != 0 { #expect(props["label"] is String, "item \(id): \(props)") }
        }
        #expect(first[2]?["enabled"] as? Bool == false && first[3]?["enabled"] as? Bool == false, "Snooze and Skip before a break is due")
        // GetGroupProperties (all items) says the same.
        let group = try rig.service.busctl(["--json=short", "call", "--", StatusItemTests.itemName(rig), "/StatusNotifierItem/Menu",
                                            "com.canonical.dbusmenu", "GetGroupProperties", "aias", "0", "0"])
        #expect(group.status == 0 && group.stdout.components(separatedBy: "\"enabled\"").count - 1 == first.count, "\(group)")

        // A break becomes due: Snooze and Skip are announced enabled, by ItemsPropertiesUpdated, not only LayoutUpdated.
        #expect(try waitUntil(timeout: 10) { try rig.service.string("State") == "due" })
        #expect(waitUntil(timeout: 5) {
            Self.announced(monitor, 2, "enabled", true) && Self.announced(monitor, 3, "enabled", true)
                && Self.announced(monitor, 18, label: "Time for an eye break — start now")
        }, "\(Self.updates(monitor))")
        let due = try Self.layout(rig)
        #expect(due[2]?["enabled"] as? Bool == true && due[3]?["enabled"] as? Bool == true)

        // Skip it: the tally's label changes.
        try StatusItemTests.click(rig, 3)
        #expect(waitUntil(timeout: 5) { Self.announced(monitor, 10, label: "Today: 0 completed, 1 skipped") }, "\(Self.updates(monitor))")

        // Pause for 30 min: the pause items grey, Resume comes on.
        try StatusItemTests.click(rig, 5)
        #expect(try rig.service.string("State") == "paused")
        #expect(waitUntil(timeout: 5) {
            Self.announced(monitor, 8, "enabled", true) && Self.announced(monitor, 5, "enabled", false) && Self.announced(monitor, 1, "enabled", false)
        }, "\(Self.updates(monitor))")
        // Resume: back again; Plasma sees it in the layout too, stated explicitly.
        try StatusItemTests.click(rig, 8)
        #expect(try rig.service.string("State") != "paused")
        #expect(waitUntil(timeout: 5) { Self.announced(monitor, 8, "enabled", false) && Self.announced(monitor, 5, "enabled", true) },
                "\(Self.updates(monitor))")
        let resumed = try Self.layout(rig)
        #expect(resumed[5]?["enabled"] as? Bool == true && resumed[1]?["enabled"] as? Bool == true && resumed[8]?["enabled"] as? Bool == false)
        // The tree never changed shape, so no LayoutUpdated was needed; each announcement names only items that exist.
        #expect(monitor.signals("LayoutUpdated").isEmpty)
        #expect(Self.updates(monitor).allSatisfy { first[$0.0] != nil })
    }

    @Test func theFirstItemDoesWhatALeftClickDoes() throws {
        // GNOME's AppIndicator opens the menu on a single left click: its first item is the left click of other panels.
        let rig = try DndBusRig(config: "Interval = 15m\nBreakDuration = 10s\n")
        let watcher = FakeWatcher()
        try rig.appear(watcher)
        try rig.service.start(arguments: ["--log-stderr", "--time-scale", "300"])
        #expect(try waitUntil(timeout: 5) { try StatusItemTests.registered(rig, watcher).count == 1 })
        let rows = try RealServerRig.menuRows(rig.service, item: StatusItemTests.itemName(rig))
        #expect(rows.first??.hasPrefix("Next break at ") == true && rows.dropFirst().first == .some(nil), "\(rows)")
        // Waiting: it shows the status (here, with no notification server, in the log) and changes nothing.
        try StatusItemTests.click(rig, 18)
        #expect(waitUntil(timeout: 5) { rig.service.log.contains(" · Today: 0 completed, 0 skipped\n") }, "\(rig.service.log)")
        #expect(try rig.service.string("State") == "waiting")
        // Due: it says so and starts the break.
        #expect(try waitUntil(timeout: 10) { try rig.service.string("State") == "due" })
        #expect(try waitUntil(timeout: 5) {
            try RealServerRig.menuRows(rig.service, item: StatusItemTests.itemName(rig)).first == "Time for an eye break — start now"
        })
        try StatusItemTests.click(rig, 18)
        #expect(try rig.service.string("State") == "break")
        #expect(try waitUntil(timeout: 5) {
            try RealServerRig.menuRows(rig.service, item: StatusItemTests.itemName(rig)).first??.hasPrefix("Break until ") == true
        })
    }
}
