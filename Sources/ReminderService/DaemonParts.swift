import SystemdKit
import ReminderCore
import FileKit
import ICareFiles
import DoNotDisturb
import Busy
import DesktopBreaks
import Presence
import StatusItem
import Sound
import Phones
import PhoneRemote

extension Daemon {
    /// The components `Daemon` composes, each made by its `start*` function and fed from the pass
    /// (Daemon+Followers); the loop's sources the daemon owns itself.
    struct Parts {
        var notifier: Notifier?
        var statusItem: StatusItem?
        var dnd: DndMonitor?
        var presence: PresenceMonitor?
        var busy: BusyMonitor?
        var eyeBreaks: DesktopEyeBreaks?
        var screenTime: ScreenTimeWatch?
        var sounds: EventSounds?
        var phones: PhoneReminders?
        var phoneRemote: PhoneRemote?
        var systemBus: SystemBusLink?
        /// The one deadline timer (Daemon+Followers).
        var deadline: EventSource?
        /// The wall clock's changes and the config folder's inotify watch.
        var sources: [EventSource] = []
    }

    /// The daemon's files and what it keeps about them (Daemon+Files, Daemon+Calls, Daemon+Startup).
    struct Files {
        let config: ConfigFile
        let history: HistoryStore
        let stateFile: StateFile
        /// The schedule as last written to the state file.
        var lastSavedSnapshot = ""
        /// Records the engine recreates at start-up that are already in the
        /// history (a crash fell between their append and the state file's
        /// update): their signals go out again, they are not stored twice.
        var storedBeforeCrash: [BreakRecord] = []
        /// The local day (`yyyymmdd`) of the last history trim in this run (0:
        /// none yet): the trim runs on the first timer wake-up of each day.
        var historyTrimDay = 0
        /// A config file that vanished is read again after a grace period (an
        /// editor may be between moving the old file away and writing the new one).
        var configGrace: EventSource?
        var configGraceArmed = false
        /// History problems already logged, so a client polling GetHistory does not flood the log.
        var reportedHistoryProblems: Set<String> = []
        /// How many break records clients may still cause (see `RecordBudget`).
        var recordBudget: RecordBudget
        /// Whether the refusal of a call over the record budget has been logged
        /// since the budget last had room.
        var recordBudgetLogged = false

        init(paths: XDGPaths, recordBudget: RecordBudget) {
            config = ConfigFile(paths: paths)
            history = HistoryStore(paths: paths)
            stateFile = StateFile(paths: paths)
            self.recordBudget = recordBudget
        }
    }

    /// Where the daemon is in its passes (Daemon+Followers).
    struct Pass {
        /// False until `startWithDesktopKnown`: the watchers' reports before it are facts the engine
        /// is built from, not events.
        var desktopKnown = false
        /// A pass, or the effects before it, under way: a report from inside (a follower's own
        /// callback) is announced at the pass's end, and its event waits for it.
        var running = false
        var waiting: [(event: ReminderEvent, at: Timestamp)] = []
    }
}
