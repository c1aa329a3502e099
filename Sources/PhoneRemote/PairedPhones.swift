import DBusKit
import DesktopWatch
import Phones

/// The phones one program has paired, as a remote follows them: the program's
/// follower shared with the reminders (`PhoneProgram`), a read again on each of
/// its signals about its devices, one read at a time (`RefreshGate`), and the
/// ids last read. What a remote does with them is its own (`onRead`, `onGone`).
final class PairedPhones {
    private let program: PhoneProgram
    private var subscriptions: [SignalSubscription] = []
    private var gate = RefreshGate()
    /// The paired phones' ids; nil while unknown (the program not running, or not read yet): then no list is touched.
    private(set) var ids: [String]?
    /// Runs after each read, also one that found the ids as they were, or none.
    var onRead: (() -> Void)?
    /// Runs when the program left.
    var onGone: (() -> Void)?
    /// Asks the program for the paired phones' ids; nil: no usable answer, the ids last read stay.
    private var read: ((@escaping ([String]?) -> Void) -> Void)?

    init(program: PhoneProgram) {
        self.program = program
    }

    /// The program's follower, for the remote's own calls to it.
    var server: BusNameFollower { program.server }

    /// `signals` subscribes to the program's signals about its devices (each a reason to read again);
    /// `read` reads the ids. The first read begins once the program is seen on the bus.
    func start(signals: (@escaping () -> Void) -> [SignalSubscription], read: @escaping (@escaping ([String]?) -> Void) -> Void) {
        self.read = read
        subscriptions = signals { [unowned self] in self.refresh() }
        program.follow { [unowned self] owner in
            self.gate.reset()
            self.ids = nil
            if owner == nil { self.onGone?() } else { self.refresh() }
        }
    }

    private func refresh() {
        guard program.server.owner != nil, gate.begin(), let read else { return }
        read { [unowned self] found in
            if let found { self.ids = found }
            self.onRead?()
            if self.gate.end() { self.refresh() }
        }
    }
}
