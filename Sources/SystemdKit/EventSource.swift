import Glibc
import CSystemd

/// One sd-event source (io, timer, signal, inotify, defer, time change).
/// Owns a reference to the `sd_event_source`; `cancel()` or deinit drops it,
/// which also releases the Swift handler (through the destroy callback).
public final class EventSource {
    fileprivate(set) var raw: OpaquePointer?

    init(raw: OpaquePointer) { self.raw = raw }

    deinit { cancel() }

    /// Disables and releases the source (sd_event_source_disable_unref). Idempotent.
    public func cancel() {
        if let r = raw {
            raw = nil
            sd_event_source_disable_unref(r)
        }
    }

    /// Whether the source is on (`SD_EVENT_ON`), off, or fires once (`SD_EVENT_ONESHOT`).
    public enum Enabled: Int32, Sendable { case off = 0, on = 1, oneshot = -1 }

    /// Turns the source on, off, or on for one shot (sd_event_source_set_enabled).
    public func setEnabled(_ state: Enabled) {
        guard let r = raw else { return }
        sd_event_source_set_enabled(r, state.rawValue)
    }

    /// For timers: the absolute time (µs on the source's clock) it fires at
    /// (sd_event_source_set_time).
    public func setTime(_ usec: UInt64) {
        guard let r = raw else { return }
        sd_event_source_set_time(r, usec)
    }

    /// For timers: the absolute time it fires at, or 0.
    public var time: UInt64 {
        guard let r = raw else { return 0 }
        var t: UInt64 = 0
        sd_event_source_get_time(r, &t)
        return t
    }

    /// For io sources: the epoll events to wait for (sd_event_source_set_io_events).
    public func setIOEvents(_ events: UInt32) {
        guard let r = raw else { return }
        sd_event_source_set_io_events(r, events)
    }

    /// A name shown in sd-event's debug logs.
    public func setDescription(_ text: String) {
        guard let r = raw else { return }
        sd_event_source_set_description(r, text)
    }
}

/// Keeps a Swift closure alive for as long as its sd-event source lives.
final class HandlerBox<T> {
    let handler: T
    init(_ handler: T) { self.handler = handler }
}

/// Hands a retained box to the source and arranges its release on destroy.
func attach<T>(_ box: HandlerBox<T>, to source: OpaquePointer) {
    sd_event_source_set_userdata(source, Unmanaged.passRetained(box).toOpaque())
    sd_event_source_set_destroy_callback(source) { userdata in
        guard let userdata else { return }
        Unmanaged<AnyObject>.fromOpaque(userdata).release()
    }
}

func unbox<T>(_ userdata: UnsafeMutableRawPointer?, as: T.Type) -> T {
    Unmanaged<HandlerBox<T>>.fromOpaque(userdata!).takeUnretainedValue().handler
}
