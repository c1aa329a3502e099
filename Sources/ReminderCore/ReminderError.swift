/// Why the engine refused an event; each carries one plain sentence for the D-Bus error message.
public enum ReminderError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The call makes no sense in the current state (`org.icare.Reminder.Error.InvalidState`).
    case invalidState(String)
    /// An argument is out of range (`org.freedesktop.DBus.Error.InvalidArgs`).
    case invalidArgs(String)

    /// The sentence for the person.
    public var message: String {
        switch self {
        case .invalidState(let m), .invalidArgs(let m): return m
        }
    }

    /// The sentence for the person.
    public var description: String { message }
}
