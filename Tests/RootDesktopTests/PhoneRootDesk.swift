import Testing
import Foundation
import TestSupport

/// What both phone suites in the roots share: the root (its own network namespace with only `lo`, since
/// kdeconnectd and GSConnect broadcast), a session in it, a notification server that records every call, the
/// config that turns phone reminders on, and the root's installed icared (from ICARE_DEB, `--time-scale 300`:
/// a reminder 8 s after the start and 8 s after a break, 10 s breaks). The phone's rig is the suite's own.
final class PhoneRootDesk {
    let root: DesktopRoot
    let session: DesktopRootSession
    let server: NotificationRecorder
    var icared: Process?

    init(_ release: DesktopRoot.Release, activatable: [String] = [], variables: [String: String] = [:]) throws {
        root = try DesktopRoot(release, loopbackOnly: true)
        do {
            session = try DesktopRootSession(root, activatable: activatable, variables: variables)
            server = try NotificationRecorder(busAddress: session.environment["DBUS_SESSION_BUS_ADDRESS"] ?? "", networkOf: root.pid,
                                              errors: root.work.appendingPathComponent("logs/recorder.log"))
            _ = try root.folder("config/icare")
            try "PhoneReminders = true\nBreakDuration = 10s\nInterval = 40m\n".write(to: root.work.appendingPathComponent("config/icare/config"),
                                                                    atomically: true, encoding: .utf8)
        } catch {
            root.stop()
            throw error
        }
    }

    var bus: String { session.environment["DBUS_SESSION_BUS_ADDRESS"] ?? "" }

    /// A log file of the root's, for a recorder the suite starts.
    func logFile(_ name: String) -> URL { root.work.appendingPathComponent("logs/\(name)") }

    func startICare() throws {
        icared = try session.startIcared(["--log-stderr", "--debug", "--time-scale", "300"], log: "icared.log")
        #expect(try session.waitForName("org.icare.Reminder", timeout: 20), "icared did not start: \(icareLog)")
    }

    var icareLog: String { session.log("icared.log") }

    func stop() {
        server.stop()
        root.stop()
    }

    func property(_ name: String) throws -> String { try session.icareProperty(name) }
    func state() throws -> String { try property("State") }

    /// Waits until icared lists exactly this phone; `phoneLog` is the phone rig's tail, for the message.
    func waitForPhones(_ label: String, phoneLog: @autoclosure () -> String) throws {
        let expected = "(<['\(label)']>,)"
        let ok = try waitUntil(timeout: 20, interval: 0.2) { try self.property("Phones") == expected }
        #expect(ok, "Phones is \((try? property("Phones")) ?? "?"), not \(expected); icared:\n\(icareLog)\n\(phoneLog())")
    }

    /// The first reminder on the desktop: iCare's Notify with Start.
    func waitForReminder() throws -> RecordedNotification {
        var found: RecordedNotification?
        _ = waitUntil(timeout: 30, interval: 0.05) {
            found = server.iCareNotifies.first { $0.actions.contains("start") }
            return found != nil
        }
        return try #require(found, "no reminder on the desktop: \(server.dump)\nicared:\n\(icareLog)")
    }

    /// Starts the break from the bus (as Start on the bubble does), waits until it has ended (any state but
    /// `break`), then a second more for what the end sends to reach the phone. What came before the window's
    /// cutoff belongs to this break, not to the next reminder (`BreakWindow`).
    func takeTheBreak() throws -> BreakWindow {
        let window = BreakWindow(breakSeconds: 10, scaledIntervalSeconds: 8)
        _ = try session.call("org.icare.Reminder", "/org/icare/Reminder", "org.icare.Reminder.StartBreak")
        #expect(try waitUntil(timeout: 5, interval: 0.05) { try self.state() == "(<'break'>,)" }, "\((try? state()) ?? "?")")
        #expect(try waitUntil(timeout: 30, interval: 0.05) { try self.state() != "(<'break'>,)" }, "the 10 s break ends: \((try? state()) ?? "?")")
        Thread.sleep(forTimeInterval: 1)
        return window
    }

    /// Another app's notification, sent inside with gdbus to the well-known name, with these hints (GVariant text).
    func notify(summary: String, hints: String = "@a{sv} {}") throws {
        _ = try session.call("org.freedesktop.Notifications", "/org/freedesktop/Notifications", "org.freedesktop.Notifications.Notify",
                             ["other-app", "0", "", summary, "body", "[]", hints, "5000"])
    }

    /// The root's whole network: `ip -o link` inside lists `lo` only.
    func links() throws -> [String] {
        let r = try root.run(["ip", "-o", "link"], environment: [:])
        guard r.status == 0 else { throw HarnessError("ip -o link inside: \(r)") }
        return r.stdout.split(separator: "\n").compactMap { $0.split(separator: ":").dropFirst().first?.trimmingCharacters(in: .whitespaces) }
    }
}
