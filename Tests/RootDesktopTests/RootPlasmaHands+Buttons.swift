import Foundation
import Testing
import TestSupport

/// The reminder popup's buttons pressed on the real Plasma 6 inside a root, and what a person then
/// sees (popups coming and going) and icared then says (its counts and times, on the root's bus).
extension RootPlasma {
    static let reminderSummary = "Time for an eye break"

    /// The one reminder popup, waited for (bounded), with Start, Snooze 5 min and Skip on it.
    func reminderPopup(timeout: TimeInterval = 30) throws -> GnomeShellAccessibility.Banner {
        let popup = try popup(timeout: timeout) { $0.texts.contains(Self.reminderSummary) }
        guard Set(popup.named).isSuperset(of: ["Start", "Snooze 5 min", "Skip"]) else {
            throw HarnessError("the reminder on Plasma \(root.release.plasma) lacks its buttons: \(popup)")
        }
        return popup
    }

    /// Presses the button labelled `label` on `popup` with the pointer (xdotool).
    func press(_ label: String, on popup: GnomeShellAccessibility.Banner) throws {
        guard let button = popup.button(label) else { throw HarnessError("no \(label) on \(popup)") }
        try click(button)
    }

    /// Waits (bounded) until no popup shows a text starting with `prefix`; false if one still does.
    func noPopup(startingWith prefix: String, timeout: TimeInterval = 10) throws -> Bool {
        try waitUntil(timeout: timeout, interval: 0.3) { try !popups().contains { $0.texts.contains { $0.hasPrefix(prefix) } } }
    }

    /// A uint32 or uint64 property of iCare's, as a number (`(<uint32 1>,)`).
    func count(_ property: String) throws -> Int { Int(try number(property)) }

    /// The notification server's `GetCapabilities`.
    func capabilities() throws -> [String] {
        DesktopRootSession.strings(try session.call("org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                                                    "org.freedesktop.Notifications.GetCapabilities"))
    }

    /// A string property of iCare's (`(<'icared'>,)` → `icared`).
    func string(_ property: String) throws -> String {
        DesktopRootSession.strings(try session.icareProperty(property)).first ?? ""
    }

    /// Writes iCare's config file for the user (before the next activation of icared).
    func configure(_ text: String) throws {
        _ = try root.folder("config/icare")
        try text.write(to: root.work.appendingPathComponent("config/icare/config"), atomically: true, encoding: .utf8)
    }

    /// Now, as icared's times count it (CLOCK_REALTIME µs).
    static var nowMicros: UInt64 { UInt64(Date().timeIntervalSince1970 * 1_000_000) }
}
