import Glibc
import CDBus
import SystemdKit

/// One sd-event io source per fd: libdbus makes separate read and write
/// watches on the same socket, and sd-event refuses a second source on one fd.
final class IOEntry {
    var source: EventSource?
    var watches: [OpaquePointer] = []
}

extension Connection {
    func attachToLoop() throws(DBusError) {
        let me = Unmanaged.passUnretained(self).toOpaque()
        let watchesSet = dbus_connection_set_watch_functions(raw, { watch, data in
            Unmanaged<Connection>.fromOpaque(data!).takeUnretainedValue().addWatch(watch!)
        }, { watch, data in
            Unmanaged<Connection>.fromOpaque(data!).takeUnretainedValue().removeWatch(watch!)
        }, { watch, data in
            Unmanaged<Connection>.fromOpaque(data!).takeUnretainedValue().updateIO(fd: dbus_watch_get_unix_fd(watch!))
        }, me, nil)
        guard watchesSet != 0 else { throw DBusError.noMemory() }
        let timeoutsSet = dbus_connection_set_timeout_functions(raw, { timeout, data in
            Unmanaged<Connection>.fromOpaque(data!).takeUnretainedValue().addTimeout(timeout!)
        }, { timeout, data in
            Unmanaged<Connection>.fromOpaque(data!).takeUnretainedValue().removeTimeout(timeout!)
        }, { timeout, data in
            Unmanaged<Connection>.fromOpaque(data!).takeUnretainedValue().toggleTimeout(timeout!)
        }, me, nil)
        guard timeoutsSet != 0 else { throw DBusError.noMemory() }
        do {
            dispatchSource = try loop.addDefer { [unowned self] in self.dispatchSome() }
        } catch {
            throw DBusError.failed("Could not add a dispatch source: \(error)")
        }
        dispatchSource?.setEnabled(.off)
        dbus_connection_set_dispatch_status_function(raw, { _, status, data in
            if status == DBUS_DISPATCH_DATA_REMAINS {
                Unmanaged<Connection>.fromOpaque(data!).takeUnretainedValue().dispatchSource?.setEnabled(.oneshot)
            }
        }, me, nil)
        // Messages may already be queued (e.g. NameAcquired during registration).
        if dbus_connection_get_dispatch_status(raw) == DBUS_DISPATCH_DATA_REMAINS {
            dispatchSource?.setEnabled(.oneshot)
        }
    }

    func detachFromLoop() {
        dbus_connection_set_dispatch_status_function(raw, nil, nil, nil)
        dbus_connection_set_watch_functions(raw, nil, nil, nil, nil, nil)
        dbus_connection_set_timeout_functions(raw, nil, nil, nil, nil, nil)
        for (_, entry) in io { entry.source?.cancel() }
        io.removeAll()
        for (_, t) in timeouts { t.cancel() }
        timeouts.removeAll()
        dispatchSource?.cancel()
        dispatchSource = nil
    }

    /// Dispatches a bounded batch, so one busy peer cannot starve the loop;
    /// re-arms itself when more is queued. Never re-entrant.
    private func dispatchSome() {
        for _ in 0..<64 {
            if dbus_connection_dispatch(raw) != DBUS_DISPATCH_DATA_REMAINS { return }
        }
        if dbus_connection_get_dispatch_status(raw) == DBUS_DISPATCH_DATA_REMAINS {
            dispatchSource?.setEnabled(.oneshot)
        }
    }

    // MARK: watches

    fileprivate func addWatch(_ watch: OpaquePointer) -> dbus_bool_t {
        let fd = dbus_watch_get_unix_fd(watch)
        let entry = io[fd] ?? IOEntry()
        if entry.source == nil {
            do {
                entry.source = try loop.addIO(fd: fd, events: 0) { [unowned self] revents in
                    self.handleIO(fd: fd, revents: revents)
                }
            } catch {
                return 0
            }
        }
        entry.watches.append(watch)
        io[fd] = entry
        updateIO(fd: fd)
        return 1
    }

    fileprivate func removeWatch(_ watch: OpaquePointer) {
        let fd = dbus_watch_get_unix_fd(watch)
        guard let entry = io[fd] else { return }
        entry.watches.removeAll { $0 == watch }
        if entry.watches.isEmpty {
            entry.source?.cancel()
            io[fd] = nil
        } else {
            updateIO(fd: fd)
        }
    }

    fileprivate func updateIO(fd: Int32) {
        guard let entry = io[fd], let source = entry.source else { return }
        var events: UInt32 = 0
        for w in entry.watches where dbus_watch_get_enabled(w) != 0 {
            let flags = dbus_watch_get_flags(w)
            if flags & DBUS_WATCH_READABLE.rawValue != 0 { events |= IOEvents.readable.rawValue }
            if flags & DBUS_WATCH_WRITABLE.rawValue != 0 { events |= IOEvents.writable.rawValue }
        }
        if events == 0 {
            source.setEnabled(.off)
        } else {
            source.setIOEvents(events)
            source.setEnabled(.on)
        }
    }

    private func handleIO(fd: Int32, revents: UInt32) {
        guard let entry = io[fd] else { return }
        let events = IOEvents(rawValue: revents)
        var flags: UInt32 = 0
        if events.contains(.readable) { flags |= DBUS_WATCH_READABLE.rawValue }
        if events.contains(.writable) { flags |= DBUS_WATCH_WRITABLE.rawValue }
        if events.contains(.error) { flags |= DBUS_WATCH_ERROR.rawValue }
        if events.contains(.hangup) { flags |= DBUS_WATCH_HANGUP.rawValue }
        // A handler may add or remove watches: walk a copy and re-check membership.
        for w in entry.watches where io[fd]?.watches.contains(w) == true && dbus_watch_get_enabled(w) != 0 {
            let wanted = dbus_watch_get_flags(w) | DBUS_WATCH_ERROR.rawValue | DBUS_WATCH_HANGUP.rawValue
            let mine = flags & wanted
            if mine != 0 { dbus_watch_handle(w, mine) }
        }
    }

    // MARK: timeouts

    fileprivate func addTimeout(_ timeout: OpaquePointer) -> dbus_bool_t {
        do {
            let source = try loop.addTimer(clock: .monotonic, at: 0, accuracy: 1000) { [unowned self] in
                self.fireTimeout(timeout)
            }
            timeouts[timeout] = source
        } catch {
            return 0
        }
        toggleTimeout(timeout)
        return 1
    }

    fileprivate func removeTimeout(_ timeout: OpaquePointer) {
        timeouts.removeValue(forKey: timeout)?.cancel()
    }

    fileprivate func toggleTimeout(_ timeout: OpaquePointer) {
        guard let source = timeouts[timeout] else { return }
        if dbus_timeout_get_enabled(timeout) != 0 {
            source.setTime(Clock.monotonic.now() + UInt64(dbus_timeout_get_interval(timeout)) * 1000)
            source.setEnabled(.oneshot)
        } else {
            source.setEnabled(.off)
        }
    }

    private func fireTimeout(_ timeout: OpaquePointer) {
        // Re-arm first: the handler may remove the timeout.
        toggleTimeout(timeout)
        dbus_timeout_handle(timeout)
    }
}
