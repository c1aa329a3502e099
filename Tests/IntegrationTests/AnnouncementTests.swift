import Testing
import Foundation
import TestSupport

/// What a client of the real icared sees on the bus, in order, over a session of calls and settings:
/// each change's signals, then one `PropertiesChanged` naming exactly the properties that changed,
/// and none for a change that changes nothing (docs/architecture.md, "After a change: the one pass").
@Suite(.serialized) struct AnnouncementTests {
    static let object = ["org.icare.Reminder", "/org/icare/Reminder"]

    struct Step {
        let args: [String]
        /// The signals it sends, in order, before its one `PropertiesChanged`.
        let signals: [String]
        /// The properties that `PropertiesChanged` names; empty: no `PropertiesChanged` at all.
        let changed: Set<String>
    }

    static func call(_ method: String, _ args: String..., signals: [String] = [], changed: Set<String>) -> Step {
        Step(args: ["call"] + object + ["org.icare.Reminder", method] + args, signals: signals, changed: changed)
    }

    static func set(_ name: String, _ type: String, _ value: String, changed: Set<String>) -> Step {
        Step(args: ["set-property"] + object + ["org.icare.Reminder", name, type, value], signals: [], changed: changed)
    }

    static let session: [Step] = [
        call("StartBreak", signals: ["BreakStarted"], changed: ["State", "BreakEnds", "NextBreak"]),
        call("Snooze", "u", "600", signals: ["BreakSnoozed"], changed: ["State", "BreakEnds", "NextBreak"]),
        call("Skip", signals: ["BreakSkipped"], changed: ["State", "SkippedToday", "NextBreak"]),
        set("Interval", "u", "1500", changed: ["Interval", "NextBreak"]),
        // The same value again: the config file is written, nothing changes, nothing is announced.
        set("Interval", "u", "1500", changed: []),
        call("Pause", "u", "0", changed: ["State", "PauseReason", "NextBreak"]),
        call("Resume", changed: ["State", "PauseReason", "NextBreak"]),
        // One setting, and what follows from it, in one announcement (before: three).
        set("Sound", "b", "false", changed: ["Sound", "SoundPlayedBy", "Capabilities"]),
        set("FullScreenReminders", "b", "true", changed: ["FullScreenReminders"]),
        set("FullScreenReminders", "b", "true", changed: []),
        // The ring turned off: what iCare can see here says so at once.
        set("StatusItem", "b", "false", changed: ["StatusItem", "Capabilities"]),
    ]

    @Test func aSessionAnnouncesEachChangeOnceNamingExactlyWhatChanged() throws {
        let s = try ServiceHarness()
        let monitor = try BusMonitor(environment: s.environment) { _ = try s.property("State") }
        defer { monitor.stop() }
        // What the start-up announces is over before the session begins.
        _ = waitUntil(timeout: 5, interval: 0.5) {
            let before = monitor.messages.count
            Thread.sleep(forTimeInterval: 0.5)
            return monitor.messages.count == before
        }
        let start = monitor.messages.count
        for step in Self.session {
            let r = try s.busctl(step.args)
            #expect(r.status == 0, "\(step.args): \(r)")
        }
        // A last call marks the end of the session's traffic.
        #expect(try s.busctl(["call"] + Self.object + ["org.freedesktop.DBus.Peer", "Ping"]).status == 0)
        #expect(waitUntil(timeout: 10) { monitor.messages.dropFirst(start).contains { Self.isCall($0, "Ping") } })

        // The session's traffic, cut at each call into the part that answers it.
        var parts: [[[String: Any]]] = []
        for message in monitor.messages.dropFirst(start) {
            if Self.isCall(message, nil) { parts.append([]) } else if !parts.isEmpty { parts[parts.count - 1].append(message) }
        }
        try #require(parts.count == Self.session.count + 1, "\(parts.count) calls seen: \(monitor.messages.dropFirst(start))")
        for (step, part) in zip(Self.session, parts) {
            let signals = part.filter { ($0["type"] as? String) == "signal" }
            let names = signals.compactMap { $0["member"] as? String }
            let changes = signals.filter { ($0["member"] as? String) == "PropertiesChanged" }
            #expect(names.filter { $0 != "PropertiesChanged" } == step.signals, "\(step.args): \(names)")
            if step.changed.isEmpty {
                #expect(changes.isEmpty, "\(step.args) changed nothing, yet announced \(changes.map(Self.changedNames))")
            } else {
                #expect(changes.count == 1, "\(step.args): \(changes.count) PropertiesChanged: \(changes.map(Self.changedNames))")
                #expect(changes.first.map(Self.changedNames) == step.changed, "\(step.args): \(changes.map(Self.changedNames))")
                // Its signals go out before the announcement of the state they led to.
                #expect(names.last == "PropertiesChanged", "\(step.args): \(names)")
            }
        }
        #expect(parts.last?.contains { ($0["member"] as? String) == "PropertiesChanged" } == false)
    }

    /// A method call to icared (`member`, or any).
    static func isCall(_ message: [String: Any], _ member: String?) -> Bool {
        (message["type"] as? String) == "method_call" && (member == nil || (message["member"] as? String) == member)
    }

    static func changedNames(_ message: [String: Any]) -> Set<String> {
        guard let payload = message["payload"] as? [String: Any], let data = payload["data"] as? [Any], data.count >= 2,
              let changed = data[1] as? [String: Any] else { return [] }
        return Set(changed.keys)
    }
}
