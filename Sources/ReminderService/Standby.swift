import Glibc
import DBusKit
import SystemdKit
import FileKit
import ICareFiles
import ReminderCore
import Localization

/// An icared that found another keeping the person's schedule and history
/// (`InstanceLock` taken: the same folders, another bus). It touches neither:
/// it owns `org.icare.Reminder` on its own bus so that clients there hear
/// why nothing happens (`KeptBy`, and each method and setting refused with
/// `KeptElsewhere`; `GetHistory` and the settings read the files), and when the other one
/// stops (its lock dropped, also by SIGKILL) it hands over to a `Daemon` in
/// the same process, which takes the name from it (docs/architecture.md,
/// "One icared per person"). Idle, it wakes for nothing: a thread waits in
/// `flock` and inotify reports a new holder.
final class Standby {
    /// How the wait ended.
    enum Outcome { case takeOver, exit(Int32) }

    let loop: EventLoop
    let log: Log
    let lock: InstanceLock
    let history: HistoryStore
    let config: ConfigFile
    private var holder: Holder?
    private(set) var bus: Connection?
    private var object: ExportedObject?
    private var wait: LockWait?
    private var watch: EventSource?
    private var nameLost: SignalSubscription?
    private var tookOver = false

    init(loop: EventLoop, log: Log, lock: InstanceLock, paths: XDGPaths) {
        self.loop = loop
        self.log = log
        self.lock = lock
        history = HistoryStore(paths: paths)
        config = ConfigFile(paths: paths)
        holder = lock.holder()
    }

    /// Who keeps the schedule, in words (`KeptBy`).
    var keptBy: String { Texts.keptBy(holder) }

    /// Serves until the lock is ours (`.takeOver`: the bus connection stays open,
    /// owning the name, until the `Daemon` takes it) or SIGTERM (`.exit(0)`).
    func run() -> Outcome {
        do {
            try loop.exitOnTerminationSignals()
            loop.enableWatchdog()
            log.notice("Another icared keeps the schedule and the history (\(Texts.keptByInLog(holder))); this one changes nothing and takes over when that one stops.")
            let bus = try Connection(bus: .session, loop: loop)
            self.bus = bus
            bus.onDisconnect = { [unowned self] in
                self.log.error("Lost the connection to the session bus; exiting.")
                self.loop.exit(1)
            }
            let object = ExportedObject(path: ReminderInterface.path, interfaces: [
                ReminderInterface.describeStandby(self, keptBy: { [unowned self] in self.keptBy }, version: Daemon.version),
            ])
            self.object = object
            bus.export(object)
            nameLost = bus.subscribe(MatchRule(sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus", member: "NameLost")) {
                [unowned self] m in
                guard (try? m.arguments())?.first?.string == ReminderInterface.busName.rawValue, !self.tookOver else { return }
                self.log.info("An icared that keeps the schedule took org.icare.Reminder on this bus; this one exits.")
                self.loop.exit(0)
            }
            switch try bus.requestName(ReminderInterface.busName, allowReplacement: true) {
            case .primaryOwner, .alreadyOwner: break
            case .exists, .inQueue:
                log.error("Another icared already owns org.icare.Reminder on this session bus; this one exits.")
                return .exit(1)
            }
            wait = try LockWait(loop: loop, fd: lock.descriptor) { [unowned self] in self.lockGranted() }
            watch = try loop.addInotify(path: lock.path, mask: UInt32(IN_MODIFY)) { [unowned self] _, _ in self.holderMayHaveChanged() }
            // The keeper may have said who it is between the first look and the watch.
            holderMayHaveChanged()
            SystemdNotify.ready(status: "Another icared keeps the schedule (\(Texts.keptByInLog(holder)))")
        } catch {
            log.error("Could not start: \(error)")
            return .exit(1)
        }
        let code: Int32
        do {
            code = try loop.run()
        } catch {
            log.error("The event loop failed: \(error)")
            return .exit(1)
        }
        if tookOver { return .takeOver }
        SystemdNotify.stopping()
        bus?.flush()
        log.info("Stopped.")
        return .exit(code)
    }

    /// The lock is ours: the other icared stopped.
    private func lockGranted() {
        guard (try? lock.tryLock()) == true else { return }
        tookOver = true
        log.info("The icared that kept the schedule stopped; this one keeps it now.")
        watch?.cancel()
        loop.exit(0)
    }

    /// The lock file changed: another icared may have taken over from the first.
    private func holderMayHaveChanged() {
        guard let now = lock.holder(), now != holder else { return }
        holder = now
        object?.emitPropertiesChanged(ReminderInterface.name, ["KeptBy"])
    }

    /// Closes the connection once the `Daemon` owns the name.
    func close() {
        nameLost?.cancel()
        bus?.close()
        bus = nil
    }
}

extension Standby: ReminderInterface.Calls {
    func call(_ event: ReminderEvent) throws(DBusError) -> ReminderStatus { throw refusal }

    /// The config file's settings, read at each look (the keeper may change them).
    var settings: Settings { config.load(previous: nil).settings }

    func changeSetting(_ key: SettingKey, to value: SettingValue) throws(DBusError) { throw refusal }
    func setStartsAtLogin(_ allowed: Bool) throws(DBusError) { throw refusal }

    private var refusal: DBusError { DBusError(name: ReminderInterface.keptElsewhere, message: KeptElsewhereText.sentence(keptBy: keptBy)) }

    func history(from: Timestamp, to: Timestamp) -> [BreakRecord] {
        history.records(from: from, to: to).records
    }
}
