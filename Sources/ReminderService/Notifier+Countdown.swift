import Glibc
import DBusKit
import SystemdKit
import ReminderCore

/// The countdown's whole-second tick, and the log that stands in for the screen where no server runs.
extension Notifier {
    /// Writes what `view` would show to the log, once per view: nobody can see it on screen.
    func logInstead(_ view: View) {
        guard view != logged else { return }
        logged = view
        switch view {
        case .none:
            break
        case .reminder:
            log.notice(Texts.reminderInLog(breakSeconds: settings.breakDuration))
        case .countdown(let ends):
            let left = max(0, ends - Timestamp(Clock.realtime.now()))
            log.notice(Texts.breakStartedInLog(secondsLeft: (left + Micro.second / 2) / Micro.second))
        case .complete:
            log.notice(Texts.breakCompleteInLog(nextAt: completeClock))
        case .status(let summary, let body):
            log.notice("\(summary) · \(body)")
        case .welcome:
            // Owed until a server shows it: the log is no place to greet a person.
            break
        }
    }

    /// Whether a failed call found no notification server: none owns the
    /// name, or starting one by activation failed.
    static func foundNoServer(_ e: DBusError) -> Bool {
        e.name == "org.freedesktop.DBus.Error.ServiceUnknown" || e.name == "org.freedesktop.DBus.Error.NameHasNoOwner"
            || e.name.hasPrefix("org.freedesktop.DBus.Error.Spawn.")
    }

    // MARK: the countdown's tick

    /// Updates the countdown on whole seconds before `ends`, re-armed at the
    /// previous deadline (no drift), on the monotonic clock.
    func startTicker(ends: Timestamp) {
        stopTicker()
        let now = Timestamp(Clock.realtime.now())
        let left = ends - now
        guard left > Micro.second else { return }
        // The next whole second before the end.
        let nextWall = ends - (left / Micro.second) * Micro.second
        let firstTick = nextWall > now ? nextWall : nextWall + Micro.second
        let mono = Clock.monotonic.now() + UInt64(firstTick - now)
        ticker = try? loop.addTimer(clock: .monotonic, at: mono, accuracy: 1_000) { [unowned self] in self.tick(ends: ends) }
    }

    func tick(ends: Timestamp) {
        guard let t = ticker else { return }
        let now = Timestamp(Clock.realtime.now())
        guard wanted == .countdown(ends: ends), dismissed != wanted, profile != nil,
              now < ends - Micro.second / 2 else {
            stopTicker()
            return
        }
        // A refused countdown is tried again, with this second's words.
        if refused == wanted { refused = nil }
        if !inFlight { showCountdown(ends: ends) }
        t.setTime(t.time + UInt64(Micro.second))
        t.setEnabled(.oneshot)
    }

    func stopTicker() {
        ticker?.cancel()
        ticker = nil
    }

}
