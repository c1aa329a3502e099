import ReminderCore

extension Notifier {
    /// What the person asked for through a button.
    enum Action: Equatable {
        case start, snooze, skip, endBreak
        /// "Open iCare" on the first start's notice, with the server's activation token (if it sent one).
        case openApp(activationToken: String?)
    }

    /// What should be on screen.
    enum View: Equatable {
        case none
        case reminder(at: Timestamp)
        case countdown(ends: Timestamp)
        /// The brief notice that a break ran to its end (`next`: the next break then).
        case complete(next: Timestamp)
        /// The brief status a left click on the status item asks for (its words).
        case status(summary: String, body: String)
        /// The first start's notice, "iCare is on" (`next`: the first break), shown once per person.
        case welcome(next: Timestamp)
    }
}

extension Notifier.View {
    /// A notice that expires by itself and gives way to anything the state asks for.
    var isBrief: Bool {
        switch self {
        case .complete, .status, .welcome: return true
        case .none, .reminder, .countdown: return false
        }
    }
}
