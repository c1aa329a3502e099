import CAdwaita
import Glibc

/// For bench/app.sh only: with ICARE_BENCH set, the app writes to stderr
/// the wall-clock time (µs since the epoch) of its first painted frame
/// (`first-frame`), of the first frame that shows the service's status
/// (`status-frame`), and of each frame after a change from the service
/// (`change-frame`), and the moments on the way to the first frame (`main`,
/// `activate`, `presented`). Nothing happens without the variable.
enum BenchHook {
    static let enabled = getenv("ICARE_BENCH") != nil
    nonisolated(unsafe) private static var statusShown = false
    nonisolated(unsafe) private static var firstDone = false
    nonisolated(unsafe) private static var changed = false

    /// Watches `window`'s frame clock (the window must be realized).
    static func watch(_ window: Widget) {
        guard enabled, let clock = gtk_widget_get_frame_clock(window) else { return }
        Signals.connect(gp(clock), "after-paint") {
            if !firstDone {
                firstDone = true
                report("first-frame")
            }
            if statusShown {
                statusShown = false
                report("status-frame")
            }
            if changed {
                changed = false
                report("change-frame")
            }
        }
    }

    /// The home view shows the status for the first time: the next frame is reported.
    static func showedStatus() {
        guard enabled else { return }
        statusShown = true
    }

    /// The service told of a change: the next frame is reported.
    static func serviceChanged() {
        if enabled { changed = true }
    }

    /// A moment on the way to the first frame.
    static func mark(_ what: String) {
        if enabled { report(what) }
    }

    private static func report(_ what: String) {
        var t = timespec()
        clock_gettime(CLOCK_REALTIME, &t)
        let line = "\(what) \(Int64(t.tv_sec) * 1_000_000 + Int64(t.tv_nsec) / 1000)\n"
        _ = line.withCString { write(2, $0, strlen($0)) }
    }
}
