import Testing
import Foundation
import TestSupport

/// The rendering profile per server (NotificationProfile), the id carried
/// across a killed icared, and buttons used after a dismissal — with the
/// real icared against the fake server of NotificationTests answering
/// `GetServerInformation` and `GetCapabilities` exactly as each real server
/// does (each pair was read from the real program under Xvfb; RealServerTests
/// runs the programs themselves).
struct NotificationProfileTests {
    static let xfce = "Xfce Notify Daemon|Xfce|0.7.3"
    static let xfceCaps = "action-icons actions body body-hyperlinks body-markup icon-static x-canonical-private-icon-only"
    static let notificationDaemon = "Notification Daemon|GNOME|3.20.0"
    static let swaync = "SwayNotificationCenter|ErikReider|0.7.3"
    static let swayncCaps = "actions body body-markup body-images persistence synchronous private-synchronous x-canonical-private-synchronous"
    static let mako = "mako|emersion|0.0.0"
    static let makoCaps = "body body-markup actions icon-static x-canonical-private-synchronous x-dunst-stack-tag"
    static let notificationDaemonCaps = "actions body body-hyperlinks body-markup icon-static sound persistence action-icons"

    @Test func xfceGetsOneStartAndACountdownWithWordsAndAButton() throws {
        let (s, fake) = try NotificationTests.dueService(capabilities: Self.xfceCaps, serverName: Self.xfce)
        defer { NotificationTests.stop(s, fake) }
        let reminder = try NotificationTests.first(fake) { $0.isICare }
        #expect(fake.calls("GetServerInformation").contains { $0.time < reminder.time }, "the server's name is read first")
        #expect(reminder.actions == ["start", "Start", "snooze", "Snooze 5 min", "skip", "Skip"],
                "xfce4-notifyd draws `default` as a second Start: \(reminder.actions)")
        try fake.click(reminder.id, "start")
        let countdown = try NotificationTests.first(fake) { $0.isICare && $0.isCountdown }
        #expect(countdown.hint("value") == nil, "`value` turns xfce4-notifyd's bubble into a bare gauge: \(countdown.hints)")
        #expect(countdown.actions == ["end", "End break"])
        #expect(!countdown.body.isEmpty && countdown.replaces == reminder.id)
    }

    /// swaync 0.7.3 drops a `default` with an empty label (its body click then only closes); mako keeps it.
    @Test func swayncGetsALabelledDefaultAndMakoAnEmptyOne() throws {
        for (server, caps, label) in [(Self.swaync, Self.swayncCaps, "Start"), (Self.mako, Self.makoCaps, "")] {
            let (s, fake) = try NotificationTests.dueService(capabilities: caps, serverName: server)
            defer { NotificationTests.stop(s, fake) }
            let reminder = try NotificationTests.first(fake) { $0.isICare }
            #expect(reminder.actions == ["default", label, "start", "Start", "snooze", "Snooze 5 min", "skip", "Skip"], "\(server): \(reminder.actions)")
        }
    }

    @Test func notificationDaemonIsNeverSentCloseNotification() throws {
        let (s, fake) = try NotificationTests.dueService(config: "SnoozeDuration = 600\n", capabilities: Self.notificationDaemonCaps,
                                                         serverName: Self.notificationDaemon)
        defer { NotificationTests.stop(s, fake) }
        let reminder = try NotificationTests.first(fake) { $0.isICare }
        #expect(reminder.actions == ["start", "Start", "snooze", "Snooze 10 min", "skip", "Skip"], "\(reminder.actions)")
        try fake.click(reminder.id, "snooze")
        #expect(try waitUntil { try s.string("State") == "snoozed" })
        // Taken away by a replacement that expires at once: the same id, no buttons, a 1 ms timeout.
        let gone = try NotificationTests.first(fake) { $0.isICare && $0.timeout == 1 }
        #expect(gone.replaces == reminder.id && gone.actions.isEmpty && gone.hint("sound-name") == nil, "\(gone)")
        #expect(waitUntil { fake.open.isEmpty }, "\(fake.dump)")
        try NotificationTests.settle(s, fake)
        #expect(fake.calls("CloseNotification").isEmpty, "CloseNotification strands the bubble on notification-daemon 3.20")
        // The next reminder is a new one, shown.
        #expect(try s.call("Skip").status == 0)
        #expect(try s.call("StartBreak").status == 0)
        let countdown = try NotificationTests.first(fake) { $0.isICare && $0.isCountdown }
        #expect(countdown.timeout == 0 && countdown.actions == ["end", "End break"])
        #expect(fake.maxOpen <= 1)
    }

    @Test func dunstGetsNoDefaultAndItsMenuStillAnswersAfterADismissal() throws {
        let (s, fake) = try NotificationTests.dueService(capabilities: NotificationTests.dunstCaps, serverName: NotificationTests.dunstName)
        defer { NotificationTests.stop(s, fake) }
        let reminder = try NotificationTests.first(fake) { $0.isICare }
        #expect(reminder.actions == ["start", "Start", "snooze", "Snooze 5 min", "skip", "Skip"],
                "dunst lists `default` in its menu too: \(reminder.actions)")
        // dunst's `do_action, close_current`: the bubble closes (reason 2), then the menu's choice arrives.
        #expect(try fake.close(reminder.id, reason: 2))
        try fake.click(reminder.id, "start")
        #expect(try waitUntil { try s.string("State") == "break" }, "log:\n\(s.log)")
        let countdown = try NotificationTests.first(fake) { $0.isICare && $0.isCountdown }
        #expect(countdown.hint("value")?.int != nil, "dunst draws the progress under the text")
    }

    @Test func aStaleIdNeverActsOnceTheViewMovedOn() throws {
        let (s, fake) = try NotificationTests.dueService(capabilities: NotificationTests.dunstCaps, serverName: NotificationTests.dunstName)
        defer { NotificationTests.stop(s, fake) }
        let reminder = try NotificationTests.first(fake) { $0.isICare }
        #expect(try fake.close(reminder.id, reason: 2))
        #expect(try s.call("Snooze", "u", "600").status == 0)
        try fake.click(reminder.id, "skip")
        try NotificationTests.settle(s, fake)
        #expect(try s.string("State") == "snoozed", "a button of a bubble from before the snooze does nothing")
        #expect(try s.number("SkippedToday") == 0)
        #expect(try s.number("MissedToday") == 0)
    }

    // MARK: a killed icared's bubble

    @Test func aRestartedIcaredReplacesTheReminderAKilledOneLeft() throws {
        let (s, fake) = try NotificationTests.dueService()
        defer { NotificationTests.stop(s, fake) }
        let reminder = try NotificationTests.first(fake) { $0.isICare }
        let memo = s.home.appendingPathComponent("runtime/icare/notification").path
        #expect(waitUntil { (try? String(contentsOfFile: memo, encoding: .utf8))?.hasPrefix("\(reminder.id) :") == true },
                "the id on screen is remembered in XDG_RUNTIME_DIR/icare")
        // SIGKILL while the reminder is shown; the new icared restores the due break from the state file the killed one wrote.
        s.kill9()
        try s.start()
        #expect(try s.string("State") == "due")
        let next = try NotificationTests.first(fake) { $0.isICare && $0.time > reminder.time }
        #expect(next.replaces == reminder.id && next.id == reminder.id, "the new reminder takes the old bubble's place: \(fake.dump)")
        #expect(fake.open == [reminder.id] && fake.maxOpen <= 1)
        // Its buttons are the new icared's.
        try fake.click(reminder.id, "skip")
        #expect(try waitUntil { try s.number("SkippedToday") == 1 })
        #expect(waitUntil { fake.open.isEmpty })
        #expect(waitUntil { !FileManager.default.fileExists(atPath: memo) }, "forgotten once nothing is on screen")
    }

    @Test func aRestartedIcaredClosesABubbleThatShouldNoLongerShow() throws {
        let (s, fake) = try NotificationTests.dueService()
        defer { NotificationTests.stop(s, fake) }
        let reminder = try NotificationTests.first(fake) { $0.isICare }
        let memo = s.home.appendingPathComponent("runtime/icare/notification").path
        // The id is written when the server's reply arrives, a moment after the server recorded the call.
        #expect(waitUntil { FileManager.default.fileExists(atPath: memo) })
        s.kill9()
        // While it was down the person paused from elsewhere: the saved schedule says waiting, far away.
        try NotificationTests.writeState(s, NotificationTests.waitingState(dueIn: 600))
        try s.start()
        #expect(waitUntil { fake.calls("CloseNotification").map(\.id) == [reminder.id] }, "\(fake.dump)")
        #expect(waitUntil { fake.open.isEmpty })
        try NotificationTests.settle(s, fake)
        #expect(fake.iCareNotifies.count == 1, "nothing new is shown")
    }

    @Test func anIdFromAnotherServerInstanceIsNotOurs() throws {
        let (s, fake) = try NotificationTests.dueService()
        defer { NotificationTests.stop(s, fake) }
        let reminder = try NotificationTests.first(fake) { $0.isICare }
        let memo = s.home.appendingPathComponent("runtime/icare/notification").path
        #expect(waitUntil { FileManager.default.fileExists(atPath: memo) }, "the old id is remembered, with the old server's name")
        s.kill9()
        fake.kill9()
        try fake.start()
        try NotificationTests.writeState(s, NotificationTests.waitingState(dueIn: 600))
        try s.start()
        try NotificationTests.settle(s, fake)
        #expect(fake.calls("CloseNotification").isEmpty, "a restarted server's ids are not the old ones: \(fake.dump)")
        #expect(fake.iCareNotifies.count == 1 && reminder.id != 0)
    }
}
