internal import CPipeWire
import SystemdKit

/// libpipewire prints its warnings and errors on stderr by itself, in its own
/// shape (`[E][00732.083619] pw.core | [ core.c: 382 core_new()] …`). While
/// this routes them, they go into icared's log instead, at debug level:
/// icared says what matters in its own sentence (`PipeWireSource`), and the
/// library's line stays there for whoever debugs. Someone who asked for
/// libpipewire's own log (`PIPEWIRE_DEBUG`) keeps it as it is.
final class PipeWireLog {
    private let log: Log
    private let route = UnsafeMutablePointer<icare_pw_log_route>.allocate(capacity: 1)

    private init(log: Log) {
        self.log = log
        route.initialize(to: icare_pw_log_route())
    }

    deinit { route.deallocate() }

    /// Routes libpipewire's log into `log` until `stop`; nil where `PIPEWIRE_DEBUG` is set.
    static func route(to log: Log) -> PipeWireLog? {
        guard getenv("PIPEWIRE_DEBUG") == nil else { return nil }
        let me = PipeWireLog(log: log)
        icare_pw_log_route(me.route, { data, _, text in
            guard let data, let text else { return }
            let me = Unmanaged<PipeWireLog>.fromOpaque(data).takeUnretainedValue()
            me.log.debug("PipeWire's library says: " + Log.escaped(String(cString: text).trimmingNewlines))
        }, Unmanaged.passUnretained(me).toOpaque(), Int32(bitPattern: SPA_LOG_LEVEL_WARN.rawValue))
        return me
    }

    /// Hands libpipewire back its own logger, silenced; call before this object goes.
    func stop() { icare_pw_log_unroute() }
}

private extension String {
    var trimmingNewlines: String {
        var text = Substring(self)
        while text.last == "\n" { text = text.dropLast() }
        return String(text)
    }
}
