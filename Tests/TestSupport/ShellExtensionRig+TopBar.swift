import Foundation

/// What the top bar shows of iCare's extension: the indicator's place and
/// words (Eval), its ring's pixels (a screenshot), and its menu.
extension ShellExtensionRig {
    /// The ring's looks and their colours: `RingRenderer.colour` (Sources/RingDrawing/RingRenderer.swift), which
    /// ShellExtensionTests also checks ring.js against.
    public enum Look: String, Sendable, CaseIterable {
        case waiting, due, `break`, snoozed, paused
        public var rgb: [UInt8] {
            switch self {
            case .waiting: [0x35, 0x84, 0xE4]
            case .due: [0xE6, 0x61, 0x00]
            case .break: [0x2E, 0xC2, 0x7E]
            case .snoozed: [0xE5, 0xA5, 0x0A]
            case .paused: [0x9A, 0x99, 0x96]
            }
        }
    }

    public struct Indicator: Sendable, CustomStringConvertible {
        /// The ring's box on the screen.
        public let x: Int, y: Int, width: Int, height: Int
        public let label: String, accessibleName: String, shown: Bool
        public var centre: (x: Int, y: Int) { (x + width / 2, y + height / 2) }
        public var description: String { "ring at \(x),\(y) \(width)×\(height), label '\(label)', says '\(accessibleName)', shown \(shown)" }
    }

    public struct MenuItem: Sendable, CustomStringConvertible {
        public let label: String, sensitive: Bool
        public let x: Int, y: Int, width: Int, height: Int
        public var description: String { label + (sensitive ? "" : " (off)") }
    }

    static let indicatorJS = "Main.panel.statusArea['\(uuid)']"

    /// The indicator now, or nil when the top bar has none.
    public func indicator() throws -> Indicator? {
        let i = Self.indicatorJS
        let object = try evalObject("""
            \(i) ? (() => { const [x, y] = \(i)._ring.get_transformed_position(); const [w, h] = \(i)._ring.get_transformed_size();
              return {x, y, w, h, label: \(i)._label.text, name: \(i).accessible_name || '', shown: \(i).visible && \(i).mapped}; })() : null
            """)
        guard let d = object as? [String: Any] else { return nil }
        func int(_ k: String) -> Int { Int(((d[k] as? NSNumber)?.doubleValue ?? -1).rounded()) }
        return Indicator(x: int("x"), y: int("y"), width: int("w"), height: int("h"), label: d["label"] as? String ?? "",
                         accessibleName: d["name"] as? String ?? "", shown: (d["shown"] as? Bool) ?? false)
    }

    /// The indicator, or a thrown error saying there is none.
    public func theIndicator() throws -> Indicator {
        guard let i = try indicator() else { throw HarnessError("no iCare indicator in the top bar of GNOME Shell \(release.gnomeShell)") }
        return i
    }

    /// The pixels of `look`'s colour (within 3 per channel) in the ring's box, from a fresh screenshot.
    public func ringPixels(_ look: Look) throws -> Int {
        let i = try theIndicator()
        let shot = try screenshot()
        return Self.count(look.rgb, in: shot, xs: (i.x - 1)..<(i.x + i.width + 1), ys: (i.y - 1)..<(i.y + i.height + 1))
    }

    /// Pixels of `colour` (within `tolerance` per channel) in the box.
    public static func count(_ colour: [UInt8], in shot: Screenshot, xs: Range<Int>, ys: Range<Int>, tolerance: Int = 3) -> Int {
        var n = 0
        for y in ys.clamped(to: 0..<shot.height) {
            for x in xs.clamped(to: 0..<shot.width) {
                let p = shot.pixel(x, y)
                if zip(p, colour).allSatisfy({ abs(Int($0) - Int($1)) <= tolerance }) { n += 1 }
            }
        }
        return n
    }

    /// Columns of the top bar (y < 32) holding pixels of `colour`, grouped into runs at most 3 px apart: one per ring drawn.
    public static func rings(of colour: [UInt8], in shot: Screenshot, tolerance: Int = 12) -> [ClosedRange<Int>] {
        var columns: [Int] = []
        for x in 0..<shot.width {
            var n = 0
            for y in 0..<min(32, shot.height) where zip(shot.pixel(x, y), colour).allSatisfy({ abs(Int($0) - Int($1)) <= tolerance }) { n += 1 }
            if n > 0 { columns.append(x) }
        }
        var runs: [ClosedRange<Int>] = []
        for x in columns {
            if let last = runs.last, x - last.upperBound <= 3 { runs[runs.count - 1] = last.lowerBound...x } else { runs.append(x...x) }
        }
        return runs.filter { $0.count >= 6 }
    }

    /// The open menu's visible items with words, top to bottom.
    public func menuItems() throws -> [MenuItem] {
        let object = try evalObject("""
            \(Self.indicatorJS).menu._getMenuItems().filter(m => m.visible && m.label && m.label.text).map(m => {
              const [x, y] = m.get_transformed_position(); const [w, h] = m.get_transformed_size();
              return {label: m.label.text, sensitive: m.getSensitive(), x, y, w, h}; })
            """)
        guard let list = object as? [[String: Any]] else { throw HarnessError("menu items: \(object)") }
        return list.map { d in
            func int(_ k: String) -> Int { Int(((d[k] as? NSNumber)?.doubleValue ?? -1).rounded()) }
            return MenuItem(label: d["label"] as? String ?? "", sensitive: d["sensitive"] as? Bool ?? false,
                            x: int("x"), y: int("y"), width: int("w"), height: int("h"))
        }
    }

    public func menuIsOpen() throws -> Bool { try eval("\(Self.indicatorJS).menu.isOpen") == "true" }

    /// Clicks the ring (where it is drawn) and waits for its menu; its items.
    @discardableResult
    public func openMenu() throws -> [MenuItem] {
        // Under load the ring may not be laid out yet (its box reads -1): wait for it, as a person waits to see it.
        var i = try theIndicator()
        _ = waitUntil(timeout: 10, interval: 0.2) {
            i = (try? self.theIndicator()) ?? i
            return i.width > 0 && i.x >= 0 && i.y >= 0
        }
        try click(x: i.centre.x, y: i.centre.y)
        guard waitUntil(timeout: 5, interval: 0.1, { (try? menuIsOpen()) == true }) else {
            throw HarnessError("a click on the ring (\(i)) opened no menu")
        }
        Thread.sleep(forTimeInterval: 0.3)
        return try menuItems()
    }

    /// Opens the menu with a click on the ring and clicks the item saying `label`; throws when it is not there or off.
    public func choose(_ label: String) throws {
        let items = try openMenu()
        guard let item = items.first(where: { $0.label == label }) else {
            throw HarnessError("no '\(label)' in the menu: \(items)")
        }
        guard item.sensitive else { throw HarnessError("'\(label)' is off in the menu: \(items)") }
        try click(x: item.x + item.width / 2, y: item.y + item.height / 2)
        guard waitUntil(timeout: 5, interval: 0.1, { (try? menuIsOpen()) == false }) else {
            throw HarnessError("the menu stayed open after a click on '\(label)'")
        }
    }

    /// Waits until icared's `name` property is `value` (as gdbus prints it, e.g. `(<'break'>,)`).
    public func waitForProperty(_ name: String, _ value: String, timeout: TimeInterval = 5) throws -> Bool {
        try waitUntil(timeout: timeout, interval: 0.1) { try icareProperty(name) == value }
    }
}
