import Foundation
import TestSupport

/// iCare's item in GNOME's top bar, drawn by the AppIndicator extension: its
/// button (a `menu` in the accessibility tree, named after the item), the ring
/// in a screenshot, and the menu a single left click opens.
extension GnomeDesktop {
    /// The ring's colours (Sources/RingDrawing/RingRenderer.swift). The extension draws the pixmap through a
    /// colour effect, so a pixel is the ring's when each channel is within 24 of these (the static
    /// eye's teal, #2a9d7c, is not within that of any of them).
    static let blue: [Int] = [0x35, 0x84, 0xE4], orange: [Int] = [0xE6, 0x61, 0x00], green: [Int] = [0x2E, 0xC2, 0x7E]

    /// One row of the open menu as the accessibility tree shows it.
    struct MenuRow: CustomStringConvertible {
        let label: String, sensitive: Bool, checked: Bool
        let node: GnomeShellAccessibility.Node
        var description: String { "\(label)\(sensitive ? "" : " (grey)")\(checked ? " ✓" : "")" }
    }

    /// The item's button in the top bar: the panel's one `menu` that is not GNOME's own.
    func indicator(timeout: TimeInterval = 10) throws -> GnomeShellAccessibility.Node {
        var found: GnomeShellAccessibility.Node?
        _ = try waitUntil(timeout: timeout, interval: 0.2) {
            found = try shell.accessibility.nodes().first {
                $0.role == "menu" && $0.y == 0 && $0.h == 32 && $0.x > HeadlessGnomeShell.width / 2 && !$0.name.isEmpty && $0.name != "System"
            }
            return found != nil
        }
        guard let found else { throw HarnessError("no item of iCare's in the top bar\n\(shell.shellLog.suffix(3000))\nicared:\n\(service.log)") }
        return found
    }

    /// Waits (bounded) until the item's button shows the ring in `colour` (more than 30 of its pixels); its centre.
    @discardableResult
    func ring(_ colour: [Int], timeout: TimeInterval = 10) throws -> (x: Int, y: Int) {
        let button = try indicator()
        return try Screenshot.ringCentre(timeout: timeout, context: "colour \(colour) in \(button)\nicared:\n\(service.log)") {
            let shot = try shell.screen()
            var found: [(x: Int, y: Int)] = []
            for y in 0..<32 {
                for x in button.x..<(button.x + button.w) {
                    let p = shot.pixel(x, y)
                    if zip(p, colour).allSatisfy({ abs(Int($0) - $1) <= 24 }) { found.append((x, y)) }
                }
            }
            return found
        }
    }

    /// The rows of the open menu (separators left out), read from the accessibility tree.
    func menuRows() throws -> [MenuRow] {
        GnomeShellAccessibility.subtrees(try shell.accessibility.nodes()) { $0.role == "menu item" }.compactMap { root, below in
            let words = below.filter { $0.role == "label" && !$0.name.isEmpty && $0.w > 18 }
            guard root.h > 2, let label = words.first else { return nil }
            return MenuRow(label: label.name, sensitive: root.sensitive, checked: root.checked, node: root)
        }
    }

    /// Opens the menu with a single left click on the item, as a person does; its rows.
    func openMenu() throws -> [MenuRow] {
        let button = try indicator()
        try shell.pointer().click(x: button.x + button.w / 2, y: button.y + button.h / 2)
        var rows: [MenuRow] = []
        guard try waitUntil(timeout: 5, interval: 0.2, { rows = try menuRows(); return !rows.isEmpty }) else {
            throw HarnessError("a left click on \(button) opened no menu")
        }
        return rows
    }

    /// The open menu's row labelled `label`; throws when there is none.
    func row(_ label: String, in rows: [MenuRow]) throws -> MenuRow {
        guard let row = rows.first(where: { $0.label == label }) else { throw HarnessError("no row '\(label)' in \(rows)") }
        return row
    }

    /// Opens the menu and clicks the row labelled `label` with the pointer.
    func choose(_ label: String) throws {
        let row = try row(label, in: openMenu())
        guard row.sensitive else { throw HarnessError("'\(label)' is greyed out") }
        try shell.pointer().click(x: row.node.centre.x, y: row.node.centre.y)
    }
}
