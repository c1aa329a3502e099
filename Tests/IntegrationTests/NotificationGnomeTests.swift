import Testing
import Foundation
import TestSupport

/// What icared sends GNOME Shell 48 and 50 (issue 29), against the fake server in their shape: the
/// reminder is not resident (GNOME marks a resident one from the focused app as seen), "break complete"
/// is a new notification after the countdown is closed (an update shrinks the banner from under the
/// pointer), and from 49 the countdown goes once (each update replays the banner's pop-in). The real
/// shells: RootDesktopTests/GnomeBannerTests.
@Suite struct NotificationGnomeTests {
    static let gnome50 = "gnome-shell|GNOME|50.5", gnome48 = "gnome-shell|GNOME|48.7"

    @Test(arguments: [gnome48, gnome50])
    func theReminderIsNotResidentAndBreakCompleteIsANewNotification(_ server: String) throws {
        let (s, fake) = try NotificationTests.dueService(config: "BreakDuration = 10\n", serverName: server)
        defer { NotificationTests.stop(s, fake) }
        let reminder = try NotificationTests.first(fake) { $0.isICare }
        #expect(reminder.hint("resident") == nil, "\(reminder.hints)")
        #expect(reminder.buttons == ["start", "snooze", "skip"])
        try fake.click(reminder.id, "start")
        #expect(try waitUntil { try s.string("State") == "break" })
        let complete = try NotificationTests.first(fake, timeout: 20) { $0.isICare && $0.summary == "Break complete" }
        let countdown = fake.iCareNotifies.filter(\.isCountdown)
        let id = try #require(countdown.first?.id)
        #expect(countdown.first?.hint("resident") == .bool(true), "the countdown stays resident")
        #expect(complete.replaces == 0 && complete.id != id, "a new notification, not an update of the countdown")
        let closed = fake.records.firstIndex { $0.member == "CloseNotification" && $0.id == id }
        let completed = fake.records.firstIndex { $0.isICare && $0.summary == "Break complete" }
        #expect(closed != nil && closed! < completed!, "the countdown is closed before: \(fake.dump)")
        #expect(complete.hint("transient") == .bool(true))
        if server == Self.gnome50 {
            #expect(countdown.count == 1, "sent once on 50: \(countdown.map(\.summary))")
            #expect(countdown.first?.summary.hasPrefix("Look far away for ") == true, "\(countdown.map(\.summary))")
        } else {
            #expect(countdown.count >= 2, "each second on 48: \(countdown.map(\.summary))")
            #expect(countdown.allSatisfy { $0.summary.hasPrefix("Look far away · ") }, "\(countdown.map(\.summary))")
        }
    }
}
