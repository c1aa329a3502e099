/// Effects collected while one event is handled.
struct Outbox {
    var effects: [ReminderEffect] = []
    /// A reminder went out during this event; announced at the end if still due and not held.
    var announce = false
}
