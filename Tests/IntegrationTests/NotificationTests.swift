import Testing
import Foundation
import TestSupport

/// Issue 3 end to end: the desktop notification that mirrors the state, proved
/// with the real icared on a private bus against (1) a fake notification
/// server with exactly the shape of docs/desktop-facts.md that records every call
/// and clicks like a person, and (2) python3-dbusmock's own
/// `notification_daemon` template, a third-party server.
///
/// How a break is made due quickly: the minimum Interval is 900 s, so each
/// test writes the engine's state file (`$XDG_STATE_HOME/icare/state`, the
/// `icare-engine=1` format of EngineSnapshot) before icared starts, saying
/// the current interval began `Interval` ago minus a second and the next
/// reminder is a second away. icared restores it as any restart would, and
/// the reminder then falls due through the ordinary road: its deadline timer
/// fires, the engine says `BreakDue`, the notifier shows it. Nothing in the
/// service is bypassed or faked; only the clock's starting point is chosen.
/// A restored reminder that was already out (`phase=due`) is used where
/// the test is about the unanswered-reminder rule.
///
/// Waits are bounded polls; "nothing more happened" is proved with a barrier
/// instead of a sleep: a property read from icared (so it has handled every
/// signal sent to it before), then a `Sync` call to the server (so it has
/// recorded every call icared sent before that).
struct NotificationTests {
    static let tMax = String(UInt64(Int64.max))
    /// GNOME Shell 43's capabilities (docs/desktop-facts.md).
    static let gnome = "actions body body-markup icon-static persistence sound"
    /// dunst 1.9's name and capabilities, as the real one answers under Xvfb (RealServerTests).
    static let dunstName = "dunst|knopwob|1.9.0 (2022-06-27)"
    static let dunstCaps = "actions body body-hyperlinks icon-static synchronous private-synchronous x-canonical-private-synchronous x-dunst-stack-tag"

    /// The icon: the themed name where the icon is installed, else its file (both as app_icon and image-path).
    static func iconIsRight(_ icon: String, _ imagePath: HintValue?) -> Bool {
        if icon == "org.icare.Reminder" { return imagePath == nil }
        return icon.hasPrefix("file:///") && icon.hasSuffix("/org.icare.Reminder.svg") && imagePath == .string(icon)
            && FileManager.default.fileExists(atPath: String(icon.dropFirst("file://".count)))
    }

    // MARK: the reminder

    @Test func theReminderHasTheExactShape() throws {
        let (s, fake) = try Self.dueService(config: "SnoozeDuration = 420\n")
        defer { Self.stop(s, fake) }
        let reminder = try Self.first(fake) { $0.isICare }
        #expect(try s.string("State") == "due")
        #expect(fake.calls("GetCapabilities").contains { $0.time < reminder.time }, "capabilities are read when the server is found")
        #expect(reminder.app == "iCare")
        #expect(reminder.replaces == 0)
        #expect(Self.iconIsRight(reminder.icon, reminder.hint("image-path")), "\(reminder.icon) \(reminder.hints)")
        #expect(!reminder.summary.isEmpty)
        #expect(!reminder.body.isEmpty && !reminder.body.contains("\n"), "one line: \(reminder.body)")
        #expect(!reminder.body.contains("icarectl"), "with buttons the body need not teach the CLI: \(reminder.body)")
        #expect(reminder.body.contains("20 seconds"), "the body says what to do: \(reminder.body)")
        #expect(reminder.actions == ["default", "", "start", "Start", "snooze", "Snooze 7 min", "skip", "Skip"],
                "GNOME Shell: the body click is `default`, never a button, so its label is empty: \(reminder.actions)")
        #expect(reminder.buttons.count == 3, "at most three buttons: GNOME Shell drops the rest")
        #expect(reminder.hint("desktop-entry") == .string("org.icare.Reminder"))
        #expect(reminder.hint("category")?.isString == true)
        #expect(reminder.hint("urgency") == .byte(1))
        #expect(reminder.hint("sound-name")?.isString == true, "Sound is on by default")
        #expect(reminder.timeout == 0, "a reminder stays until answered")
        #expect(fake.records.allSatisfy { $0.error == nil }, "every call had the exact signature: \(fake.records.compactMap(\.error))")
        #expect(fake.maxOpen <= 1)
    }

    @Test func noSoundNameWhenSoundIsOff() throws {
        let (s, fake) = try Self.dueService(config: "Sound = false\nBreakDuration = 15\nSnoozeDuration = 90\n")
        defer { Self.stop(s, fake) }
        let reminder = try Self.first(fake) { $0.isICare }
        #expect(reminder.hint("sound-name") == nil, "\(reminder.hints)")
        #expect(reminder.hint("suppress-sound") == .bool(true), "Sound off: silence asked of the server too")
        #expect(reminder.body.contains("15 seconds"), "\(reminder.body)")
        #expect(reminder.actions.contains("Snooze 1 min 30 s"), "the label says the SnoozeDuration exactly: \(reminder.actions)")

        // The break complete is silent as well: a restored break that ends two seconds after the start.
        let now = Self.nowMicros()
        let state = "icare-engine=1\nclock=\(now)\nphase=break\nstart=\(now - 13_000_000)\nends=\(now + 2_000_000)\npause=none\n"
        let (s2, fake2) = try Self.service(config: "Sound = false\nBreakDuration = 15\n", state: state)
        defer { Self.stop(s2, fake2) }
        let complete = try Self.first(fake2) { $0.isICare && $0.summary == "Break complete" }
        #expect(complete.hint("sound-name") == nil, "\(complete.hints)")
        #expect(complete.hint("suppress-sound") == .bool(true))
        #expect(fake2.iCareNotifies.first?.isCountdown == true, "the restored break's countdown came first")
        #expect(try s2.number("CompletedToday") == 1)
    }

    @Test func theStartButtonTurnsTheReminderIntoTheCountdown() throws {
        let (s, fake) = try Self.dueService(config: "BreakDuration = 30\n")
        defer { Self.stop(s, fake) }
        let reminder = try Self.first(fake) { $0.isICare }
        try fake.click(reminder.id, "start")
        #expect(try waitUntil { try s.string("State") == "break" })
        let countdown = try Self.first(fake) { $0.isICare && $0.isCountdown }
        #expect(countdown.replaces == reminder.id, "the countdown replaces the reminder through replaces_id")
        #expect(countdown.id == reminder.id)
        #expect(countdown.actions == ["end", "End break"], "one button: end the break early: \(countdown.actions)")
        #expect(countdown.seconds.map { $0 >= 28 && $0 <= 30 } == true, "\(countdown.summary)")
        #expect(countdown.hint("value") == nil, "GNOME Shell draws no gauge: the seconds are in the summary: \(countdown.hints)")
        #expect(countdown.hint("sound-name") == nil, "a countdown update makes no sound")
        // The end button ends it early, recorded as skipped.
        try fake.click(reminder.id, "end")
        #expect(try waitUntil { try s.string("State") == "waiting" })
        #expect(try s.number("SkippedToday") == 1)
        #expect(try s.number("CompletedToday") == 0)
        #expect(try s.call("GetHistory", "tt", "0", Self.tMax).stdout.contains("\"skipped\""))
        #expect(waitUntil { fake.calls("CloseNotification").map(\.id) == [reminder.id] }, "\(fake.records)")
        #expect(waitUntil { fake.open.isEmpty })
        #expect(fake.maxOpen <= 1)
    }

    @Test func aClickOnTheBodyStartsTheBreak() throws {
        let (s, fake) = try Self.dueService()
        defer { Self.stop(s, fake) }
        let reminder = try Self.first(fake) { $0.isICare }
        try fake.click(reminder.id, "default")
        #expect(try waitUntil { try s.string("State") == "break" })
        let countdown = try Self.first(fake) { $0.isICare && $0.isCountdown }
        #expect(countdown.replaces == reminder.id)
        #expect(fake.maxOpen <= 1)
    }

    @Test func theSnoozeButtonSnoozesAndClosesTheReminder() throws {
        let (s, fake) = try Self.dueService(config: "SnoozeDuration = 600\n")
        defer { Self.stop(s, fake) }
        let reminder = try Self.first(fake) { $0.isICare }
        #expect(reminder.actions.contains("Snooze 10 min"))
        let clicked = Self.nowMicros()
        try fake.click(reminder.id, "snooze")
        #expect(try waitUntil { try s.string("State") == "snoozed" })
        let next = try s.number("NextBreak")
        #expect(next >= UInt64(clicked) + 599_000_000 && next <= UInt64(Self.nowMicros()) + 600_000_000, "snoozed by SnoozeDuration")
        #expect(waitUntil { fake.calls("CloseNotification").map(\.id) == [reminder.id] }, "\(fake.records)")
        #expect(fake.open.isEmpty)
        #expect(try s.number("SkippedToday") == 0)
        try Self.settle(s, fake)
        #expect(fake.iCareNotifies.count == 1, "nothing new on screen while snoozed")
    }

    @Test func theSkipButtonRecordsASkipAndClosesTheReminder() throws {
        let (s, fake) = try Self.dueService()
        defer { Self.stop(s, fake) }
        let reminder = try Self.first(fake) { $0.isICare }
        try fake.click(reminder.id, "skip")
        #expect(try waitUntil { try s.number("SkippedToday") == 1 })
        #expect(try s.string("State") == "waiting")
        #expect(try s.call("GetHistory", "tt", "0", Self.tMax).stdout.contains("\"skipped\" 0"))
        #expect(waitUntil { fake.calls("CloseNotification").map(\.id) == [reminder.id] })
        #expect(fake.open.isEmpty)
        try Self.settle(s, fake)
        #expect(fake.iCareNotifies.count == 1)
    }

    @Test func aDismissalIsNotADecision() throws {
        let (s, fake) = try Self.dueService()
        defer { Self.stop(s, fake) }
        let reminder = try Self.first(fake) { $0.isICare }
        #expect(try fake.close(reminder.id, reason: 2), "the person closes it with its ✕")
        try Self.settle(s, fake)
        #expect(try s.string("State") == "due", "the break stays due")
        #expect(try s.number("SkippedToday") == 0)
        // Another change of the status must not push the same reminder again.
        #expect(try s.busctl(["set-property", "org.icare.Reminder", "/org/icare/Reminder", "org.icare.Reminder", "SnoozeDuration", "u", "900"]).status == 0)
        #expect(try s.busctl(["set-property", "org.icare.Reminder", "/org/icare/Reminder", "org.icare.Reminder", "Sound", "b", "false"]).status == 0)
        try Self.settle(s, fake)
        #expect(fake.iCareNotifies.count == 1, "a dismissed reminder is not shown again: \(fake.iCareNotifies.map(\.summary))")
        #expect(fake.calls("CloseNotification").isEmpty)
        // It can still be answered another way, and what follows is shown.
        #expect(try s.call("StartBreak").status == 0)
        let countdown = try Self.first(fake) { $0.isICare && $0.isCountdown }
        #expect(countdown.replaces == 0, "the dismissed notification is gone: a new one")
        #expect(fake.maxOpen <= 1)
    }

    @Test func actionsForOtherNotificationsAreIgnored() throws {
        let (s, fake) = try Self.dueService()
        defer { Self.stop(s, fake) }
        let reminder = try Self.first(fake) { $0.isICare }
        // Another application's notification on the same server, with keys like ours.
        let other = try s.busctl(["call", "org.freedesktop.Notifications", "/org/freedesktop/Notifications", "org.freedesktop.Notifications",
                                  "Notify", "susssasa{sv}i", "Mail", "0", "", "New mail", "", "4", "start", "Start", "skip", "Skip", "0", "0"])
        let otherID = try #require(UInt32(other.stdout.split(separator: " ").last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""), "\(other)")
        #expect(otherID != reminder.id)
        for key in ["start", "skip", "snooze", "default"] { try fake.click(otherID, key) }
        try fake.emitClosed(otherID, reason: 2)
        // An id nobody has, and our id sent by someone who is not the server.
        try fake.click(reminder.id + 1000, "skip")
        let spoof = try s.busctl(["emit", "/org/freedesktop/Notifications", "org.freedesktop.Notifications", "ActionInvoked", "us",
                                  "\(reminder.id)", "skip"])
        #expect(spoof.status == 0, "\(spoof)")
        try Self.settle(s, fake)
        #expect(try s.string("State") == "due")
        #expect(try s.number("SkippedToday") == 0)
        #expect(fake.iCareNotifies.count == 1)
        // Our own notification still answers.
        try fake.click(reminder.id, "skip")
        #expect(try waitUntil { try s.number("SkippedToday") == 1 })
    }

    @Test func theReminderFollowsSettingsThatChangeItsText() throws {
        let (s, fake) = try Self.dueService(config: "SnoozeDuration = 420\n")
        defer { Self.stop(s, fake) }
        let reminder = try Self.first(fake) { $0.isICare }
        #expect(try s.busctl(["set-property", "org.icare.Reminder", "/org/icare/Reminder", "org.icare.Reminder", "SnoozeDuration", "u", "600"]).status == 0)
        let relabelled = try Self.first(fake) { $0.isICare && $0.actions.contains("Snooze 10 min") }
        #expect(relabelled.replaces == reminder.id && relabelled.id == reminder.id, "the button never promises another duration than it gives")
        #expect(relabelled.hint("sound-name") == nil && relabelled.hint("suppress-sound") == .bool(true), "updated without a second sound")
        #expect(try s.busctl(["set-property", "org.icare.Reminder", "/org/icare/Reminder", "org.icare.Reminder", "BreakDuration", "u", "25"]).status == 0)
        let longer = try Self.first(fake) { $0.isICare && $0.body.contains("25 seconds") }
        #expect(longer.replaces == reminder.id)
        // A setting that changes nothing on screen does not push it again.
        let count = fake.iCareNotifies.count
        #expect(try s.busctl(["set-property", "org.icare.Reminder", "/org/icare/Reminder", "org.icare.Reminder", "Interval", "u", "1500"]).status == 0)
        try Self.settle(s, fake)
        #expect(fake.iCareNotifies.count == count, "\(fake.dump)")
        #expect(fake.maxOpen <= 1)
        // The snooze given is the one the label said.
        let clicked = Self.nowMicros()
        try fake.click(reminder.id, "snooze")
        #expect(try waitUntil { try s.string("State") == "snoozed" })
        #expect(try s.number("NextBreak") >= UInt64(clicked) + 599_000_000)
    }

    @Test func nothingIsShownBeforeTheCapabilitiesAreKnown() throws {
        // A server whose GetCapabilities answers late, and a change of state while the answer is out:
        // the reminder must still get its buttons.
        let s = try ServiceHarness(start: false)
        let fake = try FakeNotificationServer(environment: s.bus.environment, capabilitiesDelay: 1500)
        defer { Self.stop(s, fake) }
        try Self.writeState(s, Self.waitingState(dueIn: 1))
        try s.start()
        #expect(try waitUntil(timeout: 10) { try s.string("State") == "due" })
        try fake.start()
        #expect(waitUntil { !fake.calls("GetCapabilities").isEmpty })
        #expect(try s.busctl(["set-property", "org.icare.Reminder", "/org/icare/Reminder", "org.icare.Reminder", "SnoozeDuration", "u", "600"]).status == 0)
        let reminder = try Self.first(fake) { $0.isICare }
        #expect(reminder.actions.contains("start") && reminder.actions.contains("Snooze 10 min"), "\(fake.dump)")
        #expect(fake.iCareNotifies.count == 1)
    }

    // MARK: the countdown

    @Test func theCountdownCountsDownAndEndsWithABriefBreakComplete() throws {
        // dunst: the one known server that draws `value` as a bar under the text.
        let (s, fake) = try Self.service(config: "BreakDuration = 10\n", capabilities: Self.dunstCaps, serverName: Self.dunstName)
        defer { Self.stop(s, fake) }
        #expect(try s.call("StartBreak").status == 0)
        #expect(try waitUntil(timeout: 20, interval: 0.1) { try s.number("CompletedToday") == 1 }, "log:\n\(s.log)")
        let complete = try Self.first(fake, timeout: 5) { $0.isICare && $0.summary == "Break complete" }
        let countdown = fake.iCareNotifies.filter(\.isCountdown)
        let id = try #require(countdown.first?.id)
        #expect(countdown.first?.replaces == 0)
        #expect(countdown.dropFirst().allSatisfy { $0.replaces == id && $0.id == id }, "every update replaces the same notification")
        #expect(countdown.count >= 8 && countdown.count <= 11, "about one update a second: \(countdown.map(\.summary))")
        let seconds = countdown.compactMap(\.seconds)
        #expect(seconds.count == countdown.count, "seconds left in every summary: \(countdown.map(\.summary))")
        #expect(zip(seconds, seconds.dropFirst()).allSatisfy { $0 > $1 }, "the seconds go down: \(seconds)")
        #expect((seconds.first ?? 0) >= 9 && (seconds.last ?? 99) <= 2, "\(seconds)")
        let values = countdown.compactMap { $0.hint("value")?.int }
        #expect(values.count == countdown.count, "a value hint in every update")
        #expect(zip(values, values.dropFirst()).allSatisfy { $0 < $1 } && values.allSatisfy { (0...100).contains($0) }, "\(values)")
        #expect(countdown.allSatisfy { $0.actions == ["end", "End break"] && $0.hint("sound-name") == nil })
        // Whole seconds: the updates come a second apart (the benchmark measures the precise spread).
        let gaps = zip(countdown.dropFirst(), countdown).map { $0.time - $1.time }.sorted()
        let median = gaps.isEmpty ? 0 : gaps[gaps.count / 2]
        #expect(median > 0.9 && median < 1.1, "\(gaps)")
        // The end: a transient "break complete" in place of the countdown, with sound, that expires by itself.
        #expect(complete.id == id && complete.replaces == id)
        #expect(complete.hint("transient") == .bool(true))
        #expect(complete.hint("sound-name")?.isString == true)
        #expect(complete.timeout > 0 && complete.timeout <= 10_000, "expires by itself: \(complete.timeout)")
        #expect(complete.actions.isEmpty)
        #expect(complete.body.contains("Next break at"), "\(complete.body)")
        #expect(waitUntil(timeout: 10) { fake.records.contains { $0.member == "(closed)" && $0.id == id && $0.reason == 1 } })
        try Self.settle(s, fake)
        #expect(fake.iCareNotifies.count == countdown.count + 1, "nothing after the break complete expired")
        #expect(fake.open.isEmpty)
        #expect(fake.maxOpen <= 1)
        #expect(try s.string("State") == "waiting")
    }

    @Test func aDismissalThatCrossesAnUpdateIsHonoured() throws {
        // The person closes the countdown just as an update arrives: the server's NotificationClosed
        // comes while icared's Notify is still out. The countdown must not come back.
        let (s, fake) = try Self.service(config: "BreakDuration = 30\n")
        defer { Self.stop(s, fake) }
        #expect(try s.call("StartBreak").status == 0)
        #expect(waitUntil { fake.iCareNotifies.filter(\.isCountdown).count >= 2 })
        try fake.dismissNextNotify()
        #expect(waitUntil(timeout: 3) { fake.records.contains { $0.member == "(closed)" && $0.reason == 2 } })
        let count = fake.iCareNotifies.count
        // Updates come every second: two and a half seconds without one show the ticking stopped.
        #expect(!waitUntil(timeout: 2.5) { fake.iCareNotifies.count > count }, "the dismissed countdown came back:\n\(fake.dump)")
        #expect(fake.open.isEmpty)
        #expect(try s.string("State") == "break", "dismissing the countdown does not end the break")
    }

    // MARK: staying in step

    @Test func aPauseByAnotherRoadClosesTheReminder() throws {
        let (s, fake) = try Self.dueService()
        defer { Self.stop(s, fake) }
        let reminder = try Self.first(fake) { $0.isICare }
        #expect(try s.call("Pause", "u", "0").status == 0)
        #expect(waitUntil { fake.calls("CloseNotification").map(\.id) == [reminder.id] }, "\(fake.records)")
        #expect(fake.open.isEmpty)
        #expect(try s.call("Resume").status == 0)
        try Self.settle(s, fake)
        #expect(fake.iCareNotifies.count == 1, "resuming starts a full interval: nothing to show")
        // A click on the closed reminder's button is stale and does nothing.
        try fake.click(reminder.id, "skip")
        try Self.settle(s, fake)
        #expect(try s.number("SkippedToday") == 0)
    }

    @Test func aStartOrSkipByAnotherRoadReplacesOrClosesIt() throws {
        let (s, fake) = try Self.dueService()
        defer { Self.stop(s, fake) }
        let reminder = try Self.first(fake) { $0.isICare }
        #expect(try s.call("StartBreak").status == 0, "busctl, as in docs/interface.md")
        let countdown = try Self.first(fake) { $0.isICare && $0.isCountdown }
        #expect(countdown.replaces == reminder.id)
        // The CLI's road is the same D-Bus call; Skip ends the countdown.
        #expect(try s.call("Skip").status == 0)
        #expect(waitUntil { fake.calls("CloseNotification").map(\.id) == [reminder.id] }, "\(fake.records)")
        #expect(fake.open.isEmpty)
        // A click on the gone countdown's button is stale.
        try fake.click(reminder.id, "end")
        try Self.settle(s, fake)
        #expect(try s.number("SkippedToday") == 1)
        // A break started again and paused: the countdown goes too.
        #expect(try s.call("StartBreak").status == 0)
        let second = try Self.first(fake) { $0.isICare && $0.isCountdown && $0.replaces == 0 }
        #expect(try s.call("Pause", "u", "600").status == 0)
        #expect(waitUntil { fake.calls("CloseNotification").map(\.id) == [reminder.id, second.id] }, "\(fake.records)")
        let count = fake.iCareNotifies.count
        try Self.settle(s, fake)
        #expect(fake.iCareNotifies.count == count, "no countdown update after the pause")
        #expect(fake.open.isEmpty)
        #expect(fake.maxOpen <= 1)
    }

    @Test func doNotDisturbWithDeferHoldsTheReminderUntilItEnds() throws {
        // Plasma's switch on the same server (capability `inhibitions`), watched by icared's KDE watcher.
        let s = try ServiceHarness(config: "DndPolicy = defer\n", start: false)
        let fake = try FakeNotificationServer(environment: s.bus.environment, capabilities: Self.gnome + " inhibitions")
        defer { Self.stop(s, fake) }
        try fake.start()
        try fake.setInhibited(true)
        try Self.writeState(s, Self.waitingState(dueIn: 3))
        let started = Self.nowMicros()
        try s.start()
        #expect(try waitUntil { try s.property("DoNotDisturb") == "b true" }, "log:\n\(s.log)")
        #expect(Self.nowMicros() < started + 2_500_000, "DND was known before the reminder fell due")
        #expect(try waitUntil(timeout: 10) { try s.string("State") == "due" })
        try Self.settle(s, fake)
        #expect(fake.iCareNotifies.isEmpty, "a reminder held by do-not-disturb is not shown: \(fake.dump)")
        try fake.setInhibited(false)
        let reminder = try Self.first(fake) { $0.isICare }
        #expect(reminder.actions.contains("start"))
        #expect(try s.property("DoNotDisturb") == "b false")
        #expect(fake.maxOpen <= 1)
    }

    @Test func doNotDisturbWithPauseClosesTheReminderAndTheCountdown() throws {
        let (s, fake) = try Self.dueService(capabilities: Self.gnome + " inhibitions")
        defer { Self.stop(s, fake) }
        let reminder = try Self.first(fake) { $0.isICare }
        try fake.setInhibited(true)
        #expect(try waitUntil { try s.string("State") == "paused" })
        #expect(try s.string("PauseReason") == "dnd")
        #expect(waitUntil { fake.calls("CloseNotification").map(\.id) == [reminder.id] }, "\(fake.dump)")
        try fake.setInhibited(false)
        #expect(try waitUntil { try s.string("State") == "waiting" })
        // A break the person starts runs in spite of DND being off; DND coming on ends it, unrecorded, and its countdown goes.
        #expect(try s.call("StartBreak").status == 0)
        let countdown = try Self.first(fake) { $0.isICare && $0.isCountdown }
        try fake.setInhibited(true)
        #expect(try waitUntil { try s.string("State") == "paused" })
        #expect(waitUntil { fake.calls("CloseNotification").map(\.id) == [reminder.id, countdown.id] }, "\(fake.dump)")
        let count = fake.iCareNotifies.count
        try Self.settle(s, fake)
        #expect(fake.iCareNotifies.count == count)
        #expect(fake.open.isEmpty)
        #expect(try s.number("SkippedToday") == 0 && s.number("CompletedToday") == 0)
    }

    @Test func anUnansweredReminderIsReplacedNotDoubled() throws {
        // A reminder that went out an Interval ago minus four seconds: restored as due (shown from
        // the status, without a new BreakDue), it turns into a miss (never a skip: nobody chose it) and a
        // fresh reminder soon after.
        // Four seconds, not less: under the sanitizers icared can take seconds to learn the server's
        // capabilities, and a miss before that would make the first reminder shown the fresh one.
        let now = Self.nowMicros()
        let since = now - 1_196_000_000
        let state = "icare-engine=1\nclock=\(now)\nphase=due\nstart=\(since - 1_200_000_000)\nsince=\(since)\nheld=0\npause=none\n"
        let (s, fake) = try Self.service(state: state)
        defer { Self.stop(s, fake) }
        let first = try Self.first(fake) { $0.isICare }
        #expect(try waitUntil { try s.number("MissedToday") == 1 })
        #expect(try s.number("SkippedToday") == 0)
        let second = try Self.first(fake) { $0.isICare && $0.replaces != 0 }
        #expect(second.replaces == first.id && second.id == first.id, "the new reminder replaces the old")
        #expect(try s.string("State") == "due")
        #expect(fake.open == [first.id])
        #expect(fake.maxOpen <= 1)
    }

    // MARK: any server, or none

    @Test func aServerWithoutActionsGetsNoButtonsAndTheWayToStart() throws {
        let (s, fake) = try Self.dueService(capabilities: "body")
        defer { Self.stop(s, fake) }
        let reminder = try Self.first(fake) { $0.isICare }
        #expect(reminder.actions.isEmpty, "\(reminder.actions)")
        #expect(reminder.body.contains("icarectl start"), "\(reminder.body)")
        #expect(!reminder.body.contains("\n"))
        #expect(try s.call("StartBreak").status == 0)
        let countdown = try Self.first(fake) { $0.isICare && $0.isCountdown }
        #expect(countdown.actions.isEmpty)
        #expect(countdown.replaces == reminder.id)
    }

    @Test func withNoServerTheSignalsGoOnAndTheLogSaysSoOnce() throws {
        let s = try ServiceHarness(start: false)
        defer { s.stop() }
        let monitor = try BusMonitor(environment: s.environment, match: []) {
            _ = try s.busctl(["call", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetId"])
        }
        defer { monitor.stop() }
        try Self.writeState(s, Self.waitingState(dueIn: 1))
        try s.start()
        #expect(try waitUntil(timeout: 10) { try s.string("State") == "due" })
        #expect(waitUntil { monitor.signals("BreakDue").count == 1 }, "BreakDue goes out without a server")
        #expect(try s.call("StartBreak").status == 0)
        #expect(try s.call("Skip").status == 0)
        #expect(waitUntil { !monitor.signals("BreakStarted").isEmpty && !monitor.signals("BreakSkipped").isEmpty })
        let said = s.log.components(separatedBy: "No notification server").count - 1
        #expect(said == 1, "the log says so once:\n\(s.log)")
        #expect(monitor.messages.allSatisfy { ($0["member"] as? String) != "Notify" })
    }

    @Test func aServerAppearingLateWhileABreakIsDueShowsItThen() throws {
        let s = try ServiceHarness(start: false)
        let fake = try FakeNotificationServer(environment: s.bus.environment)
        defer { Self.stop(s, fake) }
        try Self.writeState(s, Self.waitingState(dueIn: 1))
        try s.start()
        #expect(try waitUntil(timeout: 10) { try s.string("State") == "due" })
        try fake.start()
        let reminder = try Self.first(fake) { $0.isICare }
        #expect(reminder.actions.contains("start"), "capabilities read from the late server: \(reminder.actions)")
        #expect(fake.calls("GetCapabilities").contains { $0.time < reminder.time })
        try fake.click(reminder.id, "start")
        #expect(try waitUntil { try s.string("State") == "break" })
        #expect(s.log.contains("Notification server found"), "\(s.log)")
    }

    @Test func aServerAppearingLateDuringABreakShowsTheCountdown() throws {
        let s = try ServiceHarness(config: "BreakDuration = 30\n")
        let fake = try FakeNotificationServer(environment: s.bus.environment)
        defer { Self.stop(s, fake) }
        #expect(try s.call("StartBreak").status == 0)
        try fake.start()
        let countdown = try Self.first(fake) { $0.isICare && $0.isCountdown }
        #expect(countdown.replaces == 0)
        #expect(countdown.seconds.map { $0 <= 30 && $0 >= 25 } == true, "\(countdown.summary)")
        // It goes on ticking.
        #expect(waitUntil(timeout: 5) { fake.iCareNotifies.filter(\.isCountdown).count >= 3 })
    }

    @Test func aServerRestartingMidCountdownGetsTheCountdownBack() throws {
        let (s, fake) = try Self.dueService(config: "BreakDuration = 30\n")
        defer { Self.stop(s, fake) }
        let reminder = try Self.first(fake) { $0.isICare }
        try fake.click(reminder.id, "start")
        #expect(waitUntil { fake.iCareNotifies.filter(\.isCountdown).count >= 2 })
        fake.kill9()
        try fake.start()
        let back = try Self.first(fake) { $0.isICare && $0.isCountdown && $0.instance == 2 }
        #expect(back.replaces == 0, "ids of the old server mean nothing to the new one")
        #expect(back.actions == ["end", "End break"], "capabilities read again")
        #expect(fake.calls("GetCapabilities").contains { $0.instance == 2 && $0.time < back.time })
        #expect(waitUntil(timeout: 5) { fake.iCareNotifies.filter { $0.isCountdown && $0.instance == 2 }.count >= 3 }, "and it ticks on")
        let ticks = fake.iCareNotifies.filter { $0.isCountdown && $0.instance == 2 }
        #expect(ticks.dropFirst().allSatisfy { $0.replaces == back.id })
        // The new server's buttons work.
        try fake.click(back.id, "end")
        #expect(try waitUntil { try s.number("SkippedToday") == 1 })
        #expect(try s.string("State") == "waiting")
    }

    // MARK: python3-dbusmock's notification_daemon

    @Test func dbusmockNotificationDaemonButtons() throws {
        let s = try ServiceHarness(config: "SnoozeDuration = 120\n", start: false)
        let mock = try DbusmockNotifications(environment: s.bus.environment, capabilities: "actions body")
        defer { mock.stop(); s.stop() }
        try Self.writeState(s, Self.waitingState(dueIn: 1))
        try s.start()

        // The reminder, as the third-party server recorded it.
        #expect(waitUntil(timeout: 10) { ((try? mock.calls("Notify")) ?? []).count == 1 }, "log:\n\(s.log)")
        let reminder = try #require(try mock.calls("Notify").first)
        #expect(reminder[0] as? String == "iCare")
        #expect(reminder[1] as? Int == 0)
        #expect(Self.iconIsRight(reminder[2] as? String ?? "", ((reminder[6] as? [String: Any])?["image-path"] as? [String: Any])?["data"]
            .map { .string($0 as? String ?? "") }))
        #expect(reminder[5] as? [String] == ["start", "Start", "snooze", "Snooze 2 min", "skip", "Skip"],
                "an unknown server: no `default`, one Start")
        let hints = reminder[6] as? [String: Any] ?? [:]
        #expect((hints["urgency"] as? [String: Any])?["type"] as? String == "y")
        #expect((hints["desktop-entry"] as? [String: Any])?["data"] as? String == "org.icare.Reminder")
        #expect(hints["category"] != nil && hints["sound-name"] != nil, "\(hints)")
        let id = try #require(try mock.replyIDs().first)

        // Start, then the countdown replaces it; end records a skip and closes it.
        try mock.emit("ActionInvoked", "us", ["\(id)", "start"])
        #expect(try waitUntil { try s.string("State") == "break" })
        #expect(waitUntil { ((try? mock.calls("Notify")) ?? []).count >= 2 })
        let countdown = try mock.calls("Notify")[1]
        #expect(countdown[1] as? Int == Int(id), "replaces_id")
        #expect(countdown[5] as? [String] == ["end", "End break"])
        #expect((countdown[6] as? [String: Any])?["value"] == nil, "no `value` on an unknown server")
        try mock.emit("ActionInvoked", "us", ["\(id)", "end"])
        #expect(try waitUntil { try s.number("SkippedToday") == 1 })
        #expect(waitUntil { ((try? mock.calls("CloseNotification")) ?? []).map { $0[0] as? Int } == [Int(id)] })

        // Snooze, after the next reminder (a restart whose state makes it due again).
        try Self.restartDue(s)
        let snoozeID = try mock.waitForNewReminder(after: id)
        try mock.emit("ActionInvoked", "us", ["\(snoozeID)", "snooze"])
        #expect(try waitUntil { try s.string("State") == "snoozed" })
        #expect(waitUntil { ((try? mock.calls("CloseNotification")) ?? []).compactMap { $0[0] as? Int }.contains(Int(snoozeID)) })

        // Skip.
        try Self.restartDue(s)
        let skipID = try mock.waitForNewReminder(after: snoozeID)
        try mock.emit("ActionInvoked", "us", ["\(skipID)", "skip"])
        #expect(try waitUntil { try s.number("SkippedToday") == 2 })
        #expect(try s.string("State") == "waiting")

        // The default action.
        try Self.restartDue(s)
        let defaultID = try mock.waitForNewReminder(after: skipID)
        try mock.emit("ActionInvoked", "us", ["\(defaultID)", "default"])
        #expect(try waitUntil { try s.string("State") == "break" })
    }

    @Test func dbusmockNotificationDaemonDismissalForeignIdsAndNoActions() throws {
        let s = try ServiceHarness(start: false)
        let mock = try DbusmockNotifications(environment: s.bus.environment, capabilities: "actions body")
        defer { mock.stop(); s.stop() }
        try Self.writeState(s, Self.waitingState(dueIn: 1))
        try s.start()
        let id = try mock.waitForNewReminder(after: 0)
        // Someone else's id: ignored.
        try mock.emit("ActionInvoked", "us", ["\(id + 100)", "start"])
        try mock.emit("NotificationClosed", "uu", ["\(id + 100)", "2"])
        // Dismissed: the break stays due and is not pushed again.
        try mock.emit("NotificationClosed", "uu", ["\(id)", "2"])
        _ = try s.string("State")
        #expect(try s.string("State") == "due")
        #expect(try mock.calls("Notify").count == 1, "nothing re-shown")
        #expect(try s.number("SkippedToday") == 0)
        #expect(try s.call("StartBreak").status == 0)
        #expect(waitUntil { ((try? mock.calls("Notify")) ?? []).count >= 2 })
        #expect(try mock.calls("Notify")[1][1] as? Int == 0, "a new notification after the dismissed one")

        // The template's default capabilities have no `actions`: no buttons, and the body says how to start.
        let s2 = try ServiceHarness(start: false)
        let plain = try DbusmockNotifications(environment: s2.bus.environment, capabilities: nil)
        defer { plain.stop(); s2.stop() }
        try Self.writeState(s2, Self.waitingState(dueIn: 1))
        try s2.start()
        _ = try plain.waitForNewReminder(after: 0)
        let reminder = try plain.calls("Notify")[0]
        #expect((reminder[5] as? [String])?.isEmpty == true)
        #expect((reminder[4] as? String)?.contains("icarectl start") == true, "\(reminder)")
    }

    // MARK: helpers

    static func nowMicros() -> Int64 { Int64(Date().timeIntervalSince1970 * 1_000_000) }

    /// A state whose interval began `Interval` ago minus `dueIn` seconds: the reminder falls due `dueIn` seconds from now.
    static func waitingState(dueIn seconds: Double, interval: Int64 = 1200) -> String {
        let now = nowMicros()
        let next = now + Int64(seconds * 1_000_000)
        return "icare-engine=1\nclock=\(now)\nphase=waiting\nstart=\(next - interval * 1_000_000)\nnext=\(next)\npause=none\n"
    }

    static func writeState(_ s: ServiceHarness, _ text: String) throws {
        try FileManager.default.createDirectory(atPath: s.stateDirectory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        try text.write(toFile: s.stateDirectory + "/state", atomically: true, encoding: .utf8)
    }

    /// A service and a running fake server (started first), with `state` restored.
    static func service(config: String? = nil, state: String? = nil, capabilities: String = gnome,
                        serverName: String = FakeNotificationServer.gnomeShell,
                        environment: [String: String] = [:]) throws -> (ServiceHarness, FakeNotificationServer) {
        let s = try ServiceHarness(config: config, environment: environment, start: false)
        let fake = try FakeNotificationServer(environment: s.bus.environment, capabilities: capabilities, serverName: serverName)
        do {
            try fake.start()
            if let state { try writeState(s, state) }
            try s.start()
        } catch {
            stop(s, fake)
            throw error
        }
        return (s, fake)
    }

    /// A service whose reminder falls due a second after it starts, with a fake server.
    static func dueService(config: String? = nil, capabilities: String = gnome, serverName: String = FakeNotificationServer.gnomeShell,
                           environment: [String: String] = [:]) throws -> (ServiceHarness, FakeNotificationServer) {
        try service(config: config, state: waitingState(dueIn: 1), capabilities: capabilities, serverName: serverName,
                    environment: environment)
    }

    /// Kills icared (SIGKILL, or SIGTERM when `graceful`: it takes its
    /// notification away as it stops) and starts it again with a reminder a
    /// second away.
    static func restartDue(_ s: ServiceHarness, graceful: Bool = false) throws {
        if !graceful {
            s.kill9()
        } else if s.process != nil {
            _ = try s.signal(SIGTERM)
        }
        try writeState(s, waitingState(dueIn: 1))
        try s.start()
    }

    static func stop(_ s: ServiceHarness, _ fake: FakeNotificationServer) {
        fake.stop()
        s.stop()
    }

    /// Waits (bounded) for the first recorded Notify that satisfies `match`.
    static func first(_ fake: FakeNotificationServer, timeout: TimeInterval = 10,
                      _ match: @escaping (NotifyRecord) -> Bool) throws -> NotifyRecord {
        var found: NotifyRecord?
        _ = waitUntil(timeout: timeout) {
            found = fake.notifies.first(where: match)
            return found != nil
        }
        guard let found else { throw HarnessError("no such Notify; recorded:\n\(fake.dump)") }
        return found
    }

    /// A barrier: icared has handled every signal sent before, and the server has recorded every call icared sent before.
    static func settle(_ s: ServiceHarness, _ fake: FakeNotificationServer) throws {
        _ = try s.property("State")
        try fake.sync()
    }
}

// MARK: - the fake server

/// A value from a hints dictionary, with its D-Bus type.
enum HintValue: Equatable, CustomStringConvertible {
    case string(String), byte(Int), bool(Bool), int32(Int), other(String, String)
    var isString: Bool { if case .string = self { return true } else { return false } }
    var int: Int? { if case .int32(let v) = self { return v } else { return nil } }
    var description: String {
        switch self {
        case .string(let s): return "s \"\(s)\""
        case .byte(let v): return "y \(v)"
        case .bool(let v): return "b \(v)"
        case .int32(let v): return "i \(v)"
        case .other(let t, let v): return "\(t) \(v)"
        }
    }
}

/// One line of the fake server's record: a call it received, or a thing it did.
struct NotifyRecord: CustomStringConvertible {
    let member: String
    let id: UInt32
    let app: String
    let replaces: UInt32
    let icon: String
    let summary: String
    let body: String
    let actions: [String]
    let hints: [String: HintValue]
    let timeout: Int32
    let reason: UInt32
    let instance: Int
    let open: [UInt32]
    let time: Double
    let error: String?
    let destination: String

    init(_ json: [String: Any]) {
        func num(_ key: String) -> Int64 { (json[key] as? NSNumber)?.int64Value ?? 0 }
        member = json["member"] as? String ?? ""
        id = UInt32(truncatingIfNeeded: num("id"))
        app = json["app"] as? String ?? ""
        replaces = UInt32(truncatingIfNeeded: num("replaces"))
        icon = json["icon"] as? String ?? ""
        summary = json["summary"] as? String ?? ""
        body = json["body"] as? String ?? ""
        actions = json["actions"] as? [String] ?? []
        var h: [String: HintValue] = [:]
        for (k, v) in json["hints"] as? [String: [String: Any]] ?? [:] {
            let type = v["type"] as? String ?? "?"
            switch type {
            case "s": h[k] = .string(v["value"] as? String ?? "")
            case "y": h[k] = .byte((v["value"] as? NSNumber)?.intValue ?? -1)
            case "b": h[k] = .bool((v["value"] as? NSNumber)?.boolValue ?? false)
            case "i": h[k] = .int32((v["value"] as? NSNumber)?.intValue ?? -1)
            default: h[k] = .other(type, "\(v["value"] ?? "")")
            }
        }
        hints = h
        timeout = Int32(truncatingIfNeeded: num("timeout"))
        reason = UInt32(truncatingIfNeeded: num("reason"))
        instance = Int(json["instance"] as? String ?? "") ?? 0
        open = (json["open"] as? [NSNumber] ?? []).map { $0.uint32Value }
        time = (json["t"] as? NSNumber)?.doubleValue ?? 0
        error = json["error"] as? String
        destination = json["destination"] as? String ?? ""
    }

    var isICare: Bool { member == "Notify" && app == "iCare" }
    /// The countdown: its summary ends with the seconds left ("… 17 s").
    var seconds: Int? {
        let words = summary.split(separator: " ")
        guard words.count >= 2, words.last == "s" else { return nil }
        return Int(words[words.count - 2])
    }
    var isCountdown: Bool { seconds != nil }
    /// The buttons: every action pair but `default`.
    var buttons: [String] { stride(from: 0, to: actions.count - 1, by: 2).map { actions[$0] }.filter { $0 != "default" } }
    func hint(_ key: String) -> HintValue? { hints[key] }
    var description: String {
        member == "Notify"
            ? "Notify#\(instance) id \(id) replaces \(replaces) \(app) '\(summary)' '\(body)' \(actions) \(hints) \(timeout) open \(open)"
            : "\(member)#\(instance) id \(id) reason \(reason) \(error ?? "")"
    }
}

/// A notification server with exactly the shape of docs/desktop-facts.md
/// (name, path, interface, members and signatures; a call with another
/// signature is refused and recorded as an error), run as a separate
/// process with python3-dbus so that it can come, go and restart like the
/// real one. It keeps notifications open until closed, replaced or expired
/// (a positive expire_timeout), records every call as a JSON line before
/// replying, and on command emits ActionInvoked / NotificationClosed the way
/// a click would. The command object (`/org/icare/test/Control`) is extra,
/// and on another path than the server's.
final class FakeNotificationServer: @unchecked Sendable {
    static let python = "/usr/bin/python3"
    /// GetServerInformation's name, vendor and version, `|`-separated (GNOME Shell 43's, docs/desktop-facts.md).
    static let gnomeShell = "gnome-shell|GNOME|43.9"
    let environment: [String: String]
    let capabilities: String
    let serverName: String
    /// How long GetCapabilities takes to answer, in ms.
    let capabilitiesDelay: Int
    let directory: URL
    var recordPath: String { directory.appendingPathComponent("record.jsonl").path }
    var scriptPath: String { directory.appendingPathComponent("fake_notifications.py").path }
    var errorPath: String { directory.appendingPathComponent("stderr.txt").path }
    private(set) var process: Process?
    private(set) var instance = 0

    init(environment: [String: String], capabilities: String = NotificationTests.gnome, capabilitiesDelay: Int = 0,
         serverName: String = gnomeShell) throws {
        self.environment = environment
        self.capabilities = capabilities
        self.serverName = serverName
        self.capabilitiesDelay = capabilitiesDelay
        guard FileManager.default.isExecutableFile(atPath: Self.python) else {
            throw HarnessError("\(Self.python) is not installed; run scripts/deps.sh (python3-dbus, python3-gi).")
        }
        let probe = try Subprocess.run([Self.python, "-c", "import dbus, dbus.service, dbus.mainloop.glib; from gi.repository import GLib"])
        guard probe.status == 0 else {
            throw HarnessError("python3-dbus or python3-gi is missing for \(Self.python): \(probe.stderr)")
        }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("icare-notify-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Self.script.write(toFile: scriptPath, atomically: true, encoding: .utf8)
        _ = FileManager.default.createFile(atPath: recordPath, contents: nil)
    }

    /// Starts a new instance and waits (bounded) until it owns org.freedesktop.Notifications.
    func start() throws {
        instance += 1
        let me = instance
        // Not Subprocess.start: its stderr goes to a file, so that any Python error shows in the failure.
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Self.python)
        p.arguments = [scriptPath, recordPath, "\(me)", capabilities, "\(capabilitiesDelay)", serverName]
        p.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        p.standardInput = FileHandle.nullDevice
        p.standardOutput = FileHandle.nullDevice
        if !FileManager.default.fileExists(atPath: errorPath) { _ = FileManager.default.createFile(atPath: errorPath, contents: nil) }
        let err = try FileHandle(forWritingTo: URL(fileURLWithPath: errorPath))
        err.seekToEndOfFile()
        p.standardError = err
        try p.run()
        process = p
        guard waitUntil(timeout: 10, { self.records.contains { $0.member == "(ready)" && $0.instance == me } }) else {
            throw HarnessError("the fake notification server did not start:\n\(stderr)")
        }
    }

    /// Kills it (SIGKILL: the server crashes; its name goes).
    func kill9() {
        if let p = process { Subprocess.kill9(p) }
        process = nil
    }

    func stop() {
        kill9()
        try? FileManager.default.removeItem(at: directory)
    }

    deinit { kill9() }

    var stderr: String { (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "" }

    var records: [NotifyRecord] {
        let text = (try? String(contentsOfFile: recordPath, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap {
            ((try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]).map(NotifyRecord.init)
        }
    }
    var notifies: [NotifyRecord] { records.filter { $0.member == "Notify" } }
    var iCareNotifies: [NotifyRecord] { records.filter(\.isICare) }
    func calls(_ member: String) -> [NotifyRecord] { records.filter { $0.member == member } }
    /// iCare notifications open now.
    var open: [UInt32] { records.last?.open ?? [] }
    /// The most iCare notifications ever open at once.
    var maxOpen: Int { records.map(\.open.count).max() ?? 0 }
    var dump: String { records.map(\.description).joined(separator: "\n") + "\n" + stderr }

    private func control(_ method: String, _ signature: String, _ args: [String]) throws -> ProcessResult {
        let r = try Subprocess.run(["busctl", "--user", "call", "org.freedesktop.Notifications", "/org/icare/test/Control",
                                    "org.icare.test.FakeControl", method, signature] + args, environment: environment)
        guard r.status == 0 else { throw HarnessError("\(method) on the fake server failed: \(r)\n\(stderr)") }
        return r
    }

    /// A click on a button (or, with `default`, on the body): ActionInvoked(id, key).
    func click(_ id: UInt32, _ key: String) throws { _ = try control("Click", "us", ["\(id)", key]) }
    /// A click that sends an `ActivationToken` before `ActionInvoked`, as GNOME Shell and Plasma do.
    func click(_ id: UInt32, _ key: String, activationToken: String) throws {
        _ = try control("ClickWithToken", "uss", ["\(id)", key, activationToken])
    }
    /// The notification goes away (2: dismissed by the person) with NotificationClosed; false if it was not open.
    func close(_ id: UInt32, reason: UInt32) throws -> Bool { try control("Close", "uu", ["\(id)", "\(reason)"]).stdout == "b true\n" }
    /// Only the NotificationClosed signal.
    func emitClosed(_ id: UInt32, reason: UInt32) throws { _ = try control("EmitClosed", "uu", ["\(id)", "\(reason)"]) }
    /// Plasma's do-not-disturb switch: `Inhibited` and its PropertiesChanged (needs the `inhibitions` capability).
    func setInhibited(_ on: Bool) throws { _ = try control("SetInhibited", "b", [on ? "true" : "false"]) }
    /// The next iCare Notify is dismissed by the person (NotificationClosed reason 2) before its reply goes out.
    func dismissNextNotify() throws { _ = try control("DismissNextNotify", "", []) }
    /// The next iCare Notify is refused with ExcessNotificationGeneration, as Plasma refuses a repeat.
    func refuseNextNotify() throws { _ = try control("RefuseNextNotify", "", []) }
    /// Returns once the server has handled everything sent to it before.
    func sync() throws { _ = try control("Sync", "", []) }

    static let script = #"""
    # A notification server with exactly the shape of docs/desktop-facts.md, for iCare's tests.
    # argv: record-file instance-label "capability ..." capabilities-delay-ms "name|vendor|version"
    import json, sys, time
    import dbus, dbus.service, dbus.mainloop.glib
    from gi.repository import GLib

    RECORD, INSTANCE, CAPS = sys.argv[1], sys.argv[2], sys.argv[3].split()
    CAPS_DELAY = int(sys.argv[4])
    SERVER = tuple(sys.argv[5].split('|')) + ('1.2',)
    # Plasma 5.27.5 (libnotificationmanager's server_p.cpp, verified on a running plasmashell, docs/desktop-facts.md):
    # a Notify, replacement or not, whose app name, summary and body equal those of the last one it accepted
    # less than a second before is refused with ExcessNotificationGeneration.
    PLASMA = SERVER[0] == 'Plasma'
    EXCESS = 'org.freedesktop.Notifications.Error.ExcessNotificationGeneration'
    IFACE = 'org.freedesktop.Notifications'
    CONTROL = 'org.icare.test.FakeControl'
    PROPS = 'org.freedesktop.DBus.Properties'
    TYPES = ((dbus.Boolean, 'b'), (dbus.Byte, 'y'), (dbus.Int16, 'n'), (dbus.UInt16, 'q'), (dbus.Int32, 'i'),
             (dbus.UInt32, 'u'), (dbus.Int64, 'x'), (dbus.UInt64, 't'), (dbus.Double, 'd'), (dbus.String, 's'))

    def typed(v):
        for t, c in TYPES:
            if type(v) is t:
                value = bool(v) if c == 'b' else float(v) if c == 'd' else str(v) if c == 's' else int(v)
                return {'type': c, 'value': value}
        return {'type': type(v).__name__, 'value': repr(v)}

    class Server(dbus.service.Object):
        def __init__(self, bus):
            dbus.service.Object.__init__(self, bus, '/org/freedesktop/Notifications')
            self.next_id = 1
            self.open = {}
            self.expiries = {}
            self.dismiss_next = False
            self.inhibited = False
            self.last_accepted = None
            self.refuse_next = False

        def write(self, entry):
            entry['t'] = time.time()
            entry['instance'] = INSTANCE
            entry['open'] = sorted(i for i, app in self.open.items() if app == 'iCare')
            with open(RECORD, 'a') as f:
                f.write(json.dumps(entry) + '\n')

        def check(self, msg, signature):
            if msg.get_signature() != signature:
                self.write({'member': msg.get_member(), 'error': 'signature ' + msg.get_signature()})
                raise dbus.exceptions.DBusException('takes %s, not %s' % (signature, msg.get_signature()),
                                                    name='org.freedesktop.DBus.Error.InvalidArgs')

        def close(self, nid, reason):
            if nid not in self.open:
                return False
            del self.open[nid]
            source = self.expiries.pop(nid, None)
            if source is not None:
                GLib.source_remove(source)
            self.write({'member': '(closed)', 'id': nid, 'reason': reason})
            self.NotificationClosed(dbus.UInt32(nid), dbus.UInt32(reason))
            return True

        def expire(self, nid):
            self.expiries.pop(nid, None)
            self.close(nid, 1)
            return False

        @dbus.service.method(IFACE, in_signature='susssasa{sv}i', out_signature='u', message_keyword='msg')
        def Notify(self, app, replaces, icon, summary, body, actions, hints, timeout, msg=None):
            self.check(msg, 'susssasa{sv}i')
            words, now = (str(app), str(summary), str(body)), time.monotonic()
            repeated = PLASMA and self.last_accepted is not None and self.last_accepted[0] == words \
                and now - self.last_accepted[1] < 1.0
            if repeated or (self.refuse_next and str(app) == 'iCare'):
                self.refuse_next = False
                self.write({'member': '(refused)', 'app': str(app), 'replaces': int(replaces), 'summary': str(summary),
                            'error': EXCESS})
                raise dbus.exceptions.DBusException('Created too many similar notifications in quick succession',
                                                    name=EXCESS)
            self.last_accepted = (words, now)
            if replaces != 0 and int(replaces) in self.open:
                nid = int(replaces)
            else:
                nid = self.next_id
                self.next_id += 1
            self.open[nid] = str(app)
            source = self.expiries.pop(nid, None)
            if source is not None:
                GLib.source_remove(source)
            if timeout > 0:
                self.expiries[nid] = GLib.timeout_add(int(timeout), self.expire, nid)
            self.write({'member': 'Notify', 'id': nid, 'app': str(app), 'replaces': int(replaces), 'icon': str(icon),
                        'summary': str(summary), 'body': str(body), 'actions': [str(a) for a in actions],
                        'hints': {str(k): typed(v) for k, v in hints.items()}, 'timeout': int(timeout)})
            if self.dismiss_next and str(app) == 'iCare':
                # The person's click on the close button lands just as this update arrives:
                # the signal goes out before the reply.
                self.dismiss_next = False
                self.close(nid, 2)
            return dbus.UInt32(nid)

        @dbus.service.method(IFACE, in_signature='u', out_signature='', message_keyword='msg')
        def CloseNotification(self, nid, msg=None):
            self.check(msg, 'u')
            self.write({'member': 'CloseNotification', 'id': int(nid)})
            self.close(int(nid), 3)

        @dbus.service.method(IFACE, in_signature='', out_signature='as', message_keyword='msg',
                             async_callbacks=('reply', 'fail'))
        def GetCapabilities(self, msg=None, reply=None, fail=None):
            self.check(msg, '')
            self.write({'member': 'GetCapabilities', 'destination': msg.get_destination()})
            answer = dbus.Array(CAPS, signature='s')
            if CAPS_DELAY > 0:
                GLib.timeout_add(CAPS_DELAY, lambda: reply(answer) and False)
            else:
                reply(answer)

        @dbus.service.method(IFACE, in_signature='', out_signature='ssss', message_keyword='msg')
        def GetServerInformation(self, msg=None):
            self.check(msg, '')
            self.write({'member': 'GetServerInformation'})
            return SERVER

        # Plasma's do-not-disturb (docs/desktop-facts.md): the Inhibited property, on a server with `inhibitions`.
        @dbus.service.method(PROPS, in_signature='ss', out_signature='v')
        def Get(self, iface, prop):
            if iface == IFACE and prop == 'Inhibited' and 'inhibitions' in CAPS:
                return dbus.Boolean(self.inhibited, variant_level=1)
            raise dbus.exceptions.DBusException('No property %s.%s' % (iface, prop),
                                                name='org.freedesktop.DBus.Error.UnknownProperty')

        @dbus.service.method(PROPS, in_signature='s', out_signature='a{sv}')
        def GetAll(self, iface):
            if iface == IFACE and 'inhibitions' in CAPS:
                return dbus.Dictionary({'Inhibited': dbus.Boolean(self.inhibited)}, signature='sv')
            return dbus.Dictionary({}, signature='sv')

        @dbus.service.signal(PROPS, signature='sa{sv}as')
        def PropertiesChanged(self, iface, changed, invalidated):
            pass

        @dbus.service.signal(IFACE, signature='us')
        def ActionInvoked(self, nid, key):
            pass

        @dbus.service.signal(IFACE, signature='us')
        def ActivationToken(self, nid, token):
            pass

        @dbus.service.signal(IFACE, signature='uu')
        def NotificationClosed(self, nid, reason):
            pass

    class Control(dbus.service.Object):
        def __init__(self, bus, server):
            dbus.service.Object.__init__(self, bus, '/org/icare/test/Control')
            self.server = server

        @dbus.service.method(CONTROL, in_signature='us', out_signature='')
        def Click(self, nid, key):
            self.server.write({'member': '(action)', 'id': int(nid), 'key': str(key)})
            self.server.ActionInvoked(dbus.UInt32(nid), key)

        @dbus.service.method(CONTROL, in_signature='uss', out_signature='')
        def ClickWithToken(self, nid, key, token):
            # As GNOME Shell and Plasma click (notification spec 1.2): the token first, then the action.
            self.server.write({'member': '(action)', 'id': int(nid), 'key': str(key)})
            self.server.ActivationToken(dbus.UInt32(nid), token)
            self.server.ActionInvoked(dbus.UInt32(nid), key)

        @dbus.service.method(CONTROL, in_signature='uu', out_signature='b')
        def Close(self, nid, reason):
            return self.server.close(int(nid), int(reason))

        @dbus.service.method(CONTROL, in_signature='uu', out_signature='')
        def EmitClosed(self, nid, reason):
            self.server.write({'member': '(signal closed)', 'id': int(nid), 'reason': int(reason)})
            self.server.NotificationClosed(dbus.UInt32(nid), dbus.UInt32(reason))

        @dbus.service.method(CONTROL, in_signature='b', out_signature='')
        def SetInhibited(self, on):
            self.server.inhibited = bool(on)
            self.server.write({'member': '(inhibited)', 'reason': int(bool(on))})
            self.server.PropertiesChanged(IFACE, dbus.Dictionary({'Inhibited': dbus.Boolean(on)}, signature='sv'),
                                          dbus.Array([], signature='s'))

        @dbus.service.method(CONTROL, in_signature='', out_signature='')
        def DismissNextNotify(self):
            self.server.dismiss_next = True

        @dbus.service.method(CONTROL, in_signature='', out_signature='')
        def RefuseNextNotify(self):
            self.server.refuse_next = True

        @dbus.service.method(CONTROL, in_signature='', out_signature='')
        def Sync(self):
            pass

    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    bus = dbus.SessionBus()
    server = Server(bus)
    control = Control(bus, server)
    name = dbus.service.BusName('org.freedesktop.Notifications', bus, do_not_queue=True)
    server.write({'member': '(ready)'})
    GLib.MainLoop().run()
    """#
}

// MARK: - python3-dbusmock's notification_daemon

/// python3-dbusmock's `notification_daemon` template on the private bus,
/// started as its documentation says (`python3 -m dbusmock --session -t
/// notification_daemon -p '{"capabilities": "…"}'`; the bus is the one in
/// DBUS_SESSION_BUS_ADDRESS), driven through org.freedesktop.DBus.Mock.
/// Quirks of version 0.28: CloseNotification is declared `(i)`, not `(u)`
/// (it converts our `u`), answers with NotificationClosed(id, 1), not 3;
/// Notify returns replaces_id as given; no ActionInvoked or dismissal
/// without EmitSignal.
final class DbusmockNotifications: @unchecked Sendable {
    let environment: [String: String]
    let process: Process

    init(environment: [String: String], capabilities: String?) throws {
        self.environment = environment
        let python = FakeNotificationServer.python
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw HarnessError("\(python) is not installed; run scripts/deps.sh (python3-dbusmock).")
        }
        let probe = try Subprocess.run([python, "-c", "import dbusmock"])
        guard probe.status == 0 else { throw HarnessError("python3-dbusmock is not installed: \(probe.stderr)") }
        var args = [python, "-m", "dbusmock", "--session", "-t", "notification_daemon"]
        if let capabilities { args += ["-p", "{\"capabilities\": \"\(capabilities)\"}"] }
        process = try Subprocess.start(args, environment: environment)
        let owned = waitUntil(timeout: 10, interval: 0.05) {
            let r = try? Subprocess.run(["busctl", "--user", "call", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                         "NameHasOwner", "s", "org.freedesktop.Notifications"], environment: environment)
            return r?.stdout == "b true\n" || !process.isRunning
        }
        guard owned, process.isRunning else {
            Subprocess.kill9(process)
            throw HarnessError("python3 -m dbusmock -t notification_daemon did not take its name")
        }
    }

    func stop() { Subprocess.kill9(process) }
    deinit { stop() }

    private func mock(_ method: String, _ signature: String, _ args: [String], json: Bool = false) throws -> ProcessResult {
        let r = try Subprocess.run(["busctl", "--user"] + (json ? ["--json=short"] : []) +
                                   ["call", "org.freedesktop.Notifications", "/org/freedesktop/Notifications", "org.freedesktop.DBus.Mock",
                                    method, signature] + args, environment: environment)
        guard r.status == 0 else { throw HarnessError("org.freedesktop.DBus.Mock.\(method) failed: \(r)") }
        return r
    }

    /// The recorded calls of `member`, each its arguments (busctl's JSON: variants as {type, data}, unwrapped here).
    func calls(_ member: String) throws -> [[Any]] {
        let r = try mock("GetMethodCalls", "s", [member], json: true)
        let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        let outer = (json?["data"] as? [Any])?.first as? [Any] ?? []
        return outer.compactMap { row in
            guard let pair = row as? [Any], pair.count == 2, let args = pair[1] as? [[String: Any]] else { return nil }
            return args.map { $0["data"] ?? NSNull() }
        }
    }

    /// The ids the template returned for iCare's Notify calls, in order (it numbers new ones 1, 2, …
    /// and returns replaces_id for a replacement).
    func replyIDs() throws -> [UInt32] {
        var next: UInt32 = 1
        var ids: [UInt32] = []
        for call in try calls("Notify") {
            let replaces = UInt32((call[1] as? Int) ?? 0)
            if replaces != 0 {
                ids.append(replaces)
            } else {
                ids.append(next)
                next += 1
            }
        }
        return ids
    }

    /// Waits (bounded) for a new reminder (replaces_id 0, with id above `after`) and returns its id.
    func waitForNewReminder(after: UInt32) throws -> UInt32 {
        var found: UInt32?
        _ = waitUntil(timeout: 10) {
            guard let calls = try? self.calls("Notify"), let ids = try? self.replyIDs() else { return false }
            found = Array(zip(calls, ids)).last { $0.0[0] as? String == "iCare" && ($0.0[1] as? Int) == 0 && $0.1 > after }?.1
            return found != nil
        }
        guard let found else { throw HarnessError("no new reminder on the dbusmock server: \((try? calls("Notify")) ?? [])") }
        return found
    }

    /// Emits a signal of org.freedesktop.Notifications from the server (Mock.EmitSignal, signature `sssav`).
    func emit(_ signal: String, _ signature: String, _ args: [String]) throws {
        var av: [String] = ["\(signature.count)"]
        for (type, value) in zip(signature, args) { av += [String(type), value] }
        _ = try mock("EmitSignal", "sssav", ["org.freedesktop.Notifications", signal, signature] + av)
    }
}
