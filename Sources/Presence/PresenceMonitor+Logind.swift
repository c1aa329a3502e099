import SystemdKit
import DBusKit

/// logind on the system bus: the session's lock and idle hints (`IdleHint` held for the threshold
/// since `IdleSinceHint`, one one-shot timer to that moment), `PrepareForSleep`, and the system bus
/// coming and going under the monitor.
extension PresenceMonitor {
    func startLogind(_ logind: LogindWatcher) {
        logind.onPresence = { [weak self] present in
            self?.sourceChanged("logind", present, missing: "logind (org.freedesktop.login1) is not on the system bus: no lock hints or sleep from it")
        }
        logind.onResolved = { [weak self] resolution in self?.sessionResolved(resolution) }
        logind.onHints = { [weak self] in self?.logindHintsChanged() }
        logind.onPrepareForSleep = { [weak self] sleeping in self?.prepareForSleep(sleeping) }
        logind.start()
    }

    /// Call when a system bus connection is made again (the bus restarted,
    /// or came up after the service): logind is watched on it as at start,
    /// and each source missing from it is logged once more.
    public func systemBusConnected(_ system: Connection) {
        logind?.busLost()
        let watcher = LogindWatcher(bus: system)
        logind = watcher
        missingLogged.subtract(["logind", "logind session", "system bus"])
        if started { startLogind(watcher) }
    }

    /// Call when the system bus connection is lost: logind is gone with it.
    /// Its lock hints and a sleep in progress stop counting (a vanished
    /// source cannot hold the schedule paused). The caller logs the loss.
    public func systemBusLost() {
        guard let logind else { return }
        missingLogged.insert("logind")
        logind.busLost()
        if isAsleep { prepareForSleep(false) }
    }

    func logindHintsChanged() {
        updateLocked()
        updateIdleHint()
    }

    /// logind idle: `IdleHint` true and `IdleSinceHint + threshold` reached;
    /// until then one one-shot timer waits for that moment.
    func updateIdleHint() {
        idleHintTimer?.cancel()
        idleHintTimer = nil
        guard let logind, logind.sessionPath != nil, logind.hints.idle else {
            setIdleHintReached(false)
            return
        }
        let now = Clock.realtime.now()
        let since = logind.hints.idleSince == 0 ? now : logind.hints.idleSince
        let deadline = since + UInt64(idleThreshold) * 1_000_000
        if deadline <= now {
            setIdleHintReached(true)
            return
        }
        setIdleHintReached(false)
        idleHintTimer = try? loop.addTimer(clock: .realtime, at: deadline, accuracy: 100_000) { [weak self] in
            self?.idleHintTimer = nil
            self?.setIdleHintReached(true)
        }
    }

    func setIdleHintReached(_ value: Bool) {
        guard value != idleHintReached else { return }
        idleHintReached = value
        updateIdle()
    }

    func prepareForSleep(_ sleeping: Bool) {
        guard sleeping != isAsleep else { return }
        isAsleep = sleeping
        let now = Clock.boottime.now()
        if sleeping {
            sleepStartedAt = now
            note(.info, "going to sleep")
        } else {
            lastSleepDuration = now - sleepStartedAt
            note(.info, "resumed after \(lastSleepDuration! / 1_000_000) s asleep")
        }
        onSleep?(sleeping)
    }

    func sessionResolved(_ resolution: LogindWatcher.Resolution) {
        switch resolution {
        case .found(let path, let via):
            note(.info, "watching logind session \(path) (found through \(via))")
        case .none(let reason):
            reportMissing("logind session", "no logind session for this process (\(reason)): lock and idle hints from logind are not watched")
        }
    }
}
