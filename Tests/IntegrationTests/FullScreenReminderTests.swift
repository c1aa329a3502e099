import Testing
import Foundation
import TestSupport
import LoopSupport

/// Issue 40: a reminder the person asked for over a full-screen window. The real icared on a
/// private bus, iCare's Shell extension as `FakeShellRing` saying a window is in full screen,
/// and the fake notification server with GNOME Shell's shape recording each `Notify`. GNOME
/// Shell shows only critical notifications as banners over a full screen (docs/desktops.md,
/// "A full-screen window"); that it then draws them is proved with the real Shell in
/// GnomeFullscreenInRootTests.
@Suite(.serialized) struct FullScreenReminderTests {
    /// The server, then the Shell's extension with a window in full screen, then icared with a reminder two seconds away.
    static func service(config: String) throws -> (ServiceHarness, FakeNotificationServer, LoopThread, FakeShellRing) {
        let s = try ServiceHarness(config: config, start: false)
        let fake = try FakeNotificationServer(environment: s.bus.environment, capabilities: NotificationTests.gnome,
                                              serverName: FakeNotificationServer.gnomeShell)
        let desktop = try LoopThread()
        desktop.start()
        let shell = FakeShellRing(fullscreen: true)
        do {
            try fake.start()
            try shell.appear(on: desktop, address: s.bus.address)
            try NotificationTests.writeState(s, NotificationTests.waitingState(dueIn: 2))
            try s.start()
        } catch {
            desktop.stop()
            NotificationTests.stop(s, fake)
            throw error
        }
        return (s, fake, desktop, shell)
    }

    static func setFullScreenReminders(_ s: ServiceHarness, _ on: Bool) throws -> ProcessResult {
        try s.busctl(["set-property", "org.icare.Reminder", "/org/icare/Reminder", "org.icare.Reminder",
                      "FullScreenReminders", "b", on ? "true" : "false"])
    }

    @Test func withFullScreenRemindersOnTheReminderGoesOutUrgentAndTheBreakRuns() throws {
        let (s, fake, desktop, shell) = try Self.service(config: "FullScreenReminders = true\n")
        defer { desktop.stop(); NotificationTests.stop(s, fake) }
        let reminder = try NotificationTests.first(fake) { $0.isICare && $0.actions.contains("start") }
        #expect(reminder.hint("urgency") == .byte(2), "critical: the only banner GNOME Shell shows over a full screen")
        #expect(reminder.hint("sound-name")?.isString == true, "asked for, so not muted as a held one would be")
        #expect(try s.property("Busy") == "b false", "nothing is held back")
        #expect(try s.string("BusySource") == "")
        #expect(try s.string("State") == "due")

        try fake.click(reminder.id, "start")
        let countdown = try NotificationTests.first(fake) { $0.isICare && $0.actions.contains("end") }
        #expect(countdown.hint("urgency") == .byte(2), "the countdown is seen over the full screen too")
        #expect(try s.string("State") == "break")

        // Turned off during the full screen: the window holds reminders back again, as BusyPolicy says.
        #expect(try Self.setFullScreenReminders(s, false).status == 0)
        #expect(try waitUntil { try s.string("BusySource") == "full-screen" }, "log:\n\(s.log)")
        #expect(try s.property("Busy") == "b true")
        try desktop.sync { shell.set(false) }
        #expect(try waitUntil { try s.property("Busy") == "b false" }, "log:\n\(s.log)")
        #expect(try s.number("SkippedToday") == 0)
        #expect(try s.number("MissedToday") == 0)
    }

    /// Turned on while a full screen holds a due reminder back: icared's busy re-check runs first after the
    /// setting's change (docs/architecture.md, "After a change"), so Busy is false by the time the Set is
    /// answered, and the held reminder goes out once, urgent.
    @Test func turnedOnDuringAFullScreenTheHeldReminderGoesOutAtOnceAndOnce() throws {
        let (s, fake, desktop, _) = try Self.service(config: "")
        defer { desktop.stop(); NotificationTests.stop(s, fake) }
        #expect(try waitUntil { try s.string("BusySource") == "full-screen" }, "log:\n\(s.log)")
        #expect(try waitUntil(timeout: 10) { try s.string("State") == "due" }, "log:\n\(s.log)")
        try NotificationTests.settle(s, fake)
        let reminders = { fake.notifies.filter { $0.isICare && $0.actions.contains("start") } }
        #expect(reminders().isEmpty, "held back by the full screen:\n\(fake.dump)")

        #expect(try Self.setFullScreenReminders(s, true).status == 0)
        #expect(try s.property("Busy") == "b false", "heard in the same change as the setting")
        #expect(try s.string("BusySource") == "")
        let reminder = try NotificationTests.first(fake) { $0.isICare && $0.actions.contains("start") }
        #expect(reminder.hint("urgency") == .byte(2), "\(reminder.hints)")
        try NotificationTests.settle(s, fake)
        #expect(reminders().count == 1, "\(fake.dump)")
    }

    /// Off (the default) but BusyPolicy = ignore: the reminder is not held, so it must be seen.
    @Test func aReminderNotHeldOverAFullScreenIsUrgentAndAfterItLeavesItIsNot() throws {
        let (s, fake, desktop, shell) = try Self.service(config: "BusyPolicy = ignore\n")
        defer { desktop.stop(); NotificationTests.stop(s, fake) }
        #expect(try waitUntil { try s.string("BusySource") == "full-screen" }, "log:\n\(s.log)")
        let reminder = try NotificationTests.first(fake) { $0.isICare && $0.actions.contains("start") }
        #expect(reminder.hint("urgency") == .byte(2), "\(reminder.hints)")
        #expect(reminder.hint("suppress-sound") == .bool(true), "busy: the reminder is silent")

        try desktop.sync { shell.set(false) }
        #expect(try waitUntil { try s.property("Busy") == "b false" }, "log:\n\(s.log)")
        try fake.click(reminder.id, "start")
        let countdown = try NotificationTests.first(fake) { $0.isICare && $0.actions.contains("end") }
        #expect(countdown.hint("urgency") == .byte(1), "no full screen: normal urgency again")
    }

    /// Plasma draws a normal popup under a focused full-screen window (6.3) and says nothing on the bus;
    /// from 6.4 it turns on do-not-disturb, which icared follows. So on Plasma FullScreenReminders sends every
    /// reminder and countdown critical, the layer above a full screen (PlasmaFullscreenInRootTests), and off
    /// sends them as ever.
    @Test(arguments: [true, false])
    func onPlasmaFullScreenRemindersSendsEveryReminderUrgent(_ on: Bool) throws {
        let (s, fake) = try NotificationTests.dueService(config: "FullScreenReminders = \(on)\n",
                                                        capabilities: PlasmaNotificationTests.plasmaCaps,
                                                        serverName: "Plasma|KDE|6.3.6")
        defer { NotificationTests.stop(s, fake) }
        let reminder = try NotificationTests.first(fake) { $0.isICare && $0.actions.contains("start") }
        #expect(reminder.hint("urgency") == .byte(on ? 2 : 1), "\(reminder.hints)")
        try fake.click(reminder.id, "start")
        let countdown = try NotificationTests.first(fake) { $0.isICare && $0.actions.contains("end") }
        #expect(countdown.hint("urgency") == .byte(on ? 2 : 1), "\(countdown.hints)")
    }
}
