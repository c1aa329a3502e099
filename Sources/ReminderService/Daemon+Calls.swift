import DBusKit
import SystemdKit
import ReminderCore
import Localization
import ICareFiles

/// A client's call (a method of `org.icare.Reminder`). Unlike a watcher's
/// or the timer's event, a call can be refused, so its work is done before
/// it is committed: the engine runs on a copy, the records it makes are
/// stored (within the record budget), and only then does the engine move
/// on and the signals go out. A reply never reports work that did not happen.
extension Daemon {
    func call(_ event: ReminderEvent) throws(DBusError) -> ReminderStatus {
        let now = Daemon.wallNow()
        var next = engine
        var effects: [ReminderEffect] = []
        do throws(ReminderError) {
            for e in engineEvents(event) { effects += try next.handle(e, at: now) }
        } catch {
            throw ReminderInterface.error(for: error)
        }
        try storeRecords(of: effects)
        engine = next
        perform(effects, recordsStored: true)
        afterChange()
        return announced.status
    }

    /// Stores the records among `effects`, or throws and stores none when
    /// the record budget is spent.
    private func storeRecords(of effects: [ReminderEffect]) throws(DBusError) {
        let records = effects.compactMap { effect -> BreakRecord? in
            if case .record(let r) = effect { return r }
            return nil
        }
        guard !records.isEmpty else { return }
        guard files.recordBudget.spend(records.count, at: Int64(Clock.monotonic.now())) else {
            if !files.recordBudgetLogged {
                log.warning("Refusing calls that would record more breaks: more than \(RecordBudget.capacity) in a short time.")
                files.recordBudgetLogged = true
            }
            throw DBusError.limitsExceeded(tr("Too many breaks were recorded in a short time; try again in a minute."))
        }
        files.recordBudgetLogged = false
        for r in records {
            do {
                try store(r)
            } catch {
                log.error("Could not save a break record: \(error)")
                throw DBusError.failed(tr("The break could not be saved to the history, so nothing was changed: %s", error.description))
            }
        }
    }

    /// Appends `r` to the history, unless it is a record the engine made
    /// again at start-up that the history already holds.
    func store(_ r: BreakRecord) throws(HistoryError) {
        if let i = files.storedBeforeCrash.firstIndex(of: r) {
            files.storedBeforeCrash.remove(at: i)
            return
        }
        try files.history.append(r)
    }
}

extension Daemon: ReminderInterface.Backend {
    /// The settings as last announced (the engine's own, once the pass is over).
    var settings: Settings { announced.settings }
    var timeScaleFactor: UInt32 { engine.timeScale.factor }

    func changeSetting(_ key: SettingKey, to value: SettingValue) throws(DBusError) {
        let updated: Settings
        do {
            updated = try engine.settings.setting(key, to: value)
        } catch {
            throw DBusError.invalidArgs(error.reason)
        }
        // Written even when the value is already in force: the file may still
        // hold a bad line for it, and the value must survive a restart.
        do {
            try files.config.write(key, updated.value(of: key))
        } catch {
            throw DBusError.failed("Could not save \(key.name) to \(files.config.path): \(error).")
        }
        guard updated != engine.settings else { return }
        deliver(.settingsChanged(updated))
    }

    func history(from: Timestamp, to: Timestamp) -> [BreakRecord] {
        let (records, problems) = files.history.records(from: from, to: to)
        for p in problems where files.reportedHistoryProblems.insert(p.description).inserted { log.warning(p.description) }
        return records
    }
}
