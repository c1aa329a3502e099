@testable import StatusItem
import RingDrawing
import ReminderCore
import Testing

/// The tooltip and the label beside the icon, in every state (English: no catalog is set up here).
@Suite struct StatusItemTextsTests {
    static func clock(_ t: Timestamp) -> String { t == 0 ? "?" : "14:20" }

    @Test func tooltipsSayTheFullStatus() {
        func tip(_ s: ReminderStatus) -> String { StatusItemTexts.tooltip(s, clock: Self.clock) }
        #expect(tip(ReminderStatus(state: .waiting, nextBreak: 1, completedToday: 5, skippedToday: 1))
            == "Next break at 14:20 · 5 completed, 1 skipped today")
        #expect(tip(ReminderStatus(state: .waiting, nextBreak: 1, completedToday: 5, skippedToday: 1, missedToday: 2))
            == "Next break at 14:20 · 5 completed, 1 skipped, 2 missed today")
        #expect(StatusItemTexts.tally(ReminderStatus(state: .waiting, completedToday: 5, skippedToday: 1, missedToday: 2))
            == "Today: 5 completed, 1 skipped, 2 missed")
        #expect(tip(ReminderStatus(state: .snoozed, nextBreak: 1)) == "Snoozed until 14:20 · 0 completed, 0 skipped today")
        #expect(tip(ReminderStatus(state: .due)) == "Time for an eye break · 0 completed, 0 skipped today")
        #expect(tip(ReminderStatus(state: .break, breakEnds: 1)) == "Break until 14:20 · 0 completed, 0 skipped today")
        #expect(tip(ReminderStatus(state: .paused, pauseReason: .dnd)) == "Paused — do not disturb")
        #expect(tip(ReminderStatus(state: .paused, pauseReason: .locked)) == "Paused — screen locked")
        #expect(tip(ReminderStatus(state: .paused, pauseReason: .busy)) == "Paused — in a call or a video")
        #expect(tip(ReminderStatus(state: .paused, pauseReason: .user, pausedUntil: 1)) == "Paused until 14:20")
        #expect(tip(ReminderStatus(state: .paused, pauseReason: .user)) == "Paused")
        #expect(tip(ReminderStatus(state: .inactive, nextBreak: 1)) == "Outside active hours · next break at 14:20")
    }

    @Test func theAccessibleDescriptionSaysWhatTheRingShows() {
        func words(_ s: ReminderStatus, _ look: ReminderState, _ seconds: Int64?) -> String {
            StatusItemTexts.accessibleDescription(s, RingFace(look: look, fraction: 0.5, secondsLeft: seconds, nextStep: nil), clock: Self.clock)
        }
        #expect(words(ReminderStatus(state: .waiting, nextBreak: 1), .waiting, 661) == "Next break in 12 minutes")
        #expect(words(ReminderStatus(state: .waiting, nextBreak: 1), .waiting, 30) == "Next break in 1 minute")
        #expect(words(ReminderStatus(state: .snoozed, nextBreak: 1), .snoozed, 300) == "Snoozed: next break in 5 minutes")
        #expect(words(ReminderStatus(state: .due), .due, nil) == "Break due")
        #expect(words(ReminderStatus(state: .break, breakEnds: 1), .break, 17) == "Break: 17 seconds left")
        #expect(words(ReminderStatus(state: .break, breakEnds: 1), .break, 1) == "Break: 1 second left")
        #expect(words(ReminderStatus(state: .paused, pauseReason: .user, pausedUntil: 1), .paused, nil) == "Paused until 14:20")
        #expect(words(ReminderStatus(state: .paused, pauseReason: .dnd), .paused, nil) == "Paused — do not disturb")
        #expect(words(ReminderStatus(state: .inactive), .inactive, nil) == "Outside active hours")
    }

    @Test func theLabelIsTheTimeLeft() {
        func label(_ look: ReminderState, _ seconds: Int64?) -> String {
            StatusItemTexts.label(RingFace(look: look, fraction: 0.5, secondsLeft: seconds, nextStep: nil))
        }
        #expect(label(.waiting, 720) == "12 min")
        #expect(label(.waiting, 661) == "12 min", "rounded up")
        #expect(label(.waiting, 5) == "1 min")
        #expect(label(.break, 15) == "15 s")
        #expect(label(.due, nil) == "Break due")
        #expect(label(.paused, nil) == "")
    }
}
