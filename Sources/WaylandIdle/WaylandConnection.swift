import Glibc
import CWayland
import SystemdKit

/// Why a Wayland connection could not be made or was lost, in one sentence.
public struct WaylandError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// One client connection to a Wayland compositor whose socket is driven by
/// the sd-event loop: no thread, no poll of its own, no timer. When the fd is
/// readable the queued events are read (`wl_display_prepare_read`,
/// `wl_display_read_events`, which never blocks: libwayland reads with
/// MSG_DONTWAIT), dispatched (`wl_display_dispatch_pending`), and requests
/// made meanwhile are flushed. A flush that would block waits for the fd to
/// be writable instead.
final class WaylandConnection {
    /// The `wl_display`; owned until `close()`.
    private(set) var display: OpaquePointer?
    /// Called once when the connection fails: the compositor hung up or sent
    /// a protocol error, or reading or writing failed. The connection is
    /// closed right after.
    var onFailure: ((String) -> Void)?
    private var source: EventSource?
    private var waitingToWrite = false
    private var dispatching = false
    private var closeAfterDispatch = false

    /// Connects to display `name` (a socket name under `XDG_RUNTIME_DIR`, or
    /// an absolute path, as in `WAYLAND_DISPLAY`).
    init(name: String) throws(WaylandError) {
        guard let d = wl_display_connect(name) else {
            throw WaylandError("cannot connect to the Wayland display \(name): \(String(cString: strerror(errno)))")
        }
        display = d
    }

    /// Uses an already connected socket (the connection owns it from now on).
    init(fd: Int32) throws(WaylandError) {
        guard let d = wl_display_connect_to_fd(fd) else {
            throw WaylandError("cannot use fd \(fd) as a Wayland connection: \(String(cString: strerror(errno)))")
        }
        display = d
    }

    deinit { close() }

    /// Starts watching the socket on `loop`.
    func attach(to loop: EventLoop) throws(WaylandError) {
        guard let display, source == nil else { return }
        do {
            source = try loop.addIO(fd: wl_display_get_fd(display), events: IOEvents.readable.rawValue) { [weak self] revents in
                self?.ready(IOEvents(rawValue: revents))
            }
            source?.setDescription("wayland")
        } catch {
            throw WaylandError("cannot watch the Wayland socket: \(error)")
        }
    }

    /// Sends the requests made so far.
    func flush() {
        guard let display, !closeAfterDispatch else { return }
        if wl_display_flush(display) < 0 {
            if errno == EAGAIN { return wantWrite(true) }
            return fail()
        }
        wantWrite(false)
    }

    /// Disconnects (at once, or after the dispatch in progress). Idempotent;
    /// proxies must be destroyed before.
    func close() {
        if dispatching {
            closeAfterDispatch = true
            return
        }
        source?.cancel()
        source = nil
        if let display {
            self.display = nil
            wl_display_disconnect(display)
        }
    }

    private func ready(_ events: IOEvents) {
        guard let display else { return }
        if events.contains(.writable) { flush() }
        if !events.isDisjoint(with: [.readable, .hangup, .error]) {
            // Events queued by an earlier read are dispatched before reading again.
            dispatching = true
            var ok = true
            while wl_display_prepare_read(display) != 0 {
                if wl_display_dispatch_pending(display) < 0 { ok = false; break }
            }
            if ok {
                ok = wl_display_read_events(display) >= 0 && wl_display_dispatch_pending(display) >= 0
            }
            dispatching = false
            if closeAfterDispatch { closeAfterDispatch = false; return close() }
            // A hang-up with nothing left to read is noticed by read_events
            // (EPIPE); what the compositor sent before it was dispatched first.
            guard ok else { return fail() }
        }
        flush()
    }

    private func wantWrite(_ on: Bool) {
        guard on != waitingToWrite else { return }
        waitingToWrite = on
        source?.setIOEvents(on ? IOEvents([.readable, .writable]).rawValue : IOEvents.readable.rawValue)
    }

    /// The failure in words, then closed; reported once.
    private func fail() {
        guard let display else { return }
        let reason: String
        var interface: UnsafePointer<wl_interface>?
        var id: UInt32 = 0
        let code = wl_display_get_protocol_error(display, &interface, &id)
        if let interface, let name = interface.pointee.name {
            reason = "protocol error \(code) on \(String(cString: name))@\(id)"
        } else {
            let e = wl_display_get_error(display)
            reason = e == EPIPE || e == ECONNRESET ? "the compositor closed the connection"
                : String(cString: strerror(e != 0 ? e : errno))
        }
        let report = onFailure
        onFailure = nil
        report?(reason)
        close()
    }
}
