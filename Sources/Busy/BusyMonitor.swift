import DBusKit
import SystemdKit

/// Whether the person is in a call, sharing the screen, watching a video or
/// in a full-screen window the desktop shows no reminder over, summed from
/// every source into one `BusyState`: PipeWire's cameras, microphones and
/// screen casts, then the desktop's idle inhibitors (GNOME's session
/// manager, Plasma's PowerDevil), then GNOME Shell's full screen (through
/// iCare's extension), each followed through its own events. The first busy source in that order speaks; a missing
/// source is logged once and the rest keeps working.
public final class BusyMonitor {
    /// The summed state, as last reported.
    public private(set) var state = BusyState.free
    /// A full-screen window hides normal reminders now (GNOME Shell, through iCare's extension), also
    /// while an earlier source speaks for `state`: a reminder that goes out now must be urgent to be seen.
    public private(set) var fullScreen = false
    /// Runs on every change of `state` or `fullScreen`.
    public var onChange: ((BusyState) -> Void)?
    private let log: Log
    private var sources: [any InhibitorSource] = []
    /// Sources already logged as missing, and problems already logged (once each).
    private var logged: Set<String> = []

    /// `pipeWire: false` leaves PipeWire out (tests of the bus sources alone).
    public init(session: Connection, log: Log, pipeWire: Bool = true) {
        self.log = log
        if pipeWire {
            sources.append(PipeWireSource(loop: session.loop, log: log) { [unowned self] in self.problem("PipeWire", $0) })
        }
        sources += [
            GnomeSessionSource(connection: session) { [unowned self] in self.problem("GNOME's session manager", $0) },
            PowerDevilSource(connection: session) { [unowned self] in self.problem("Plasma's PowerDevil", $0) },
            ShellFullscreenSource(connection: session) { [unowned self] in self.problem("iCare's GNOME Shell extension", $0) },
        ]
    }

    /// The sources found on the bus, by name (tests and the log read this).
    public var sourcesFound: [String] { sources.filter { $0.present == true }.map(\.name) }
    /// Runs when a source may have come or gone (`sourcesFound`).
    public var onSourcesChange: (() -> Void)?

    public func start() {
        for source in sources {
            source.onChange = { [unowned self, unowned source] in self.changed(source) }
            source.start()
        }
    }

    private func changed(_ source: any InhibitorSource) {
        if source.present == true { logged.insert("missing \(source.name)") }
        // Missing from the start: said once. A source that goes away later says so itself.
        if source.present == false, logged.insert("missing \(source.name)").inserted {
            log.info("Busy: \(source.absence) (logged once).")
        }
        onSourcesChange?()
        let next = sources.map(\.state).first(where: \.active) ?? .free
        let nextFullScreen = sources.contains { $0.state.active && $0.state.source == BusyState.fullScreen }
        guard next != state || nextFullScreen != fullScreen else { return }
        fullScreen = nextFullScreen
        guard next != state else {
            onChange?(next)
            return
        }
        state = next
        if next.active {
            log.info("Busy (\(next.source)): \(Log.escaped(next.reason.isEmpty ? "no reason given" : next.reason)).")
        } else {
            log.info("No longer busy.")
        }
        onChange?(next)
    }

    private func problem(_ source: String, _ detail: String) {
        guard logged.insert("\(source): \(detail)").inserted else { return }
        log.warning("Busy: \(source): \(Log.escaped(detail)); ignoring it (logged once).")
    }
}
