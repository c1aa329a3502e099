import Testing
import Foundation
import DBusKit
import SystemdKit
import TestSupport
import LoopSupport

/// Issue 17 end to end: the real `icared` on a private bus beside a fake of
/// GNOME's session manager with its exact shape (docs/desktop-facts.md), and
/// an app that inhibits idle the way Firefox does while it plays a video.
/// What icared does is read through busctl and its signals only.
@Suite(.serialized) struct BusyServiceTests {
    /// A client connection on its own loop thread: the app holding the inhibitor.
    final class App: @unchecked Sendable {
        let loop: LoopThread
        private var connection: Connection?
        init(address: String) throws {
            loop = try LoopThread()
            loop.start()
            try loop.sync { [self] in connection = try Connection(address: address, loop: loop.loop) }
        }
        func call(_ member: String, _ arguments: [DBusValue]) throws -> DBusValue? {
            let reply = Box<Result<Message, DBusError>?>(nil)
            try loop.sync { [self] in
                connection?.call(.methodCall(destination: BusName("org.gnome.SessionManager"), path: ObjectPath("/org/gnome/SessionManager"),
                                             interface: InterfaceName("org.gnome.SessionManager"), member: MemberName(member),
                                             arguments: arguments)) { reply.value = $0 }
            }
            guard waitUntil(timeout: 5, { reply.value != nil }), case .success(let m)? = reply.value else {
                throw HarnessError("\(member) failed: \(String(describing: reply.value))")
            }
            return try loop.sync { try m.arguments().first }
        }
        func stop() { loop.stop() }
    }

    @Test func aReminderHeldWhileFirefoxPlaysAVideoGoesOutOnceAfterItStops() throws {
        // Interval 15 min at scale 600: 1.5 s; the 2-minute grace: 0.2 s.
        let s = try ServiceHarness(config: "Interval = 15m\n", start: false)
        defer { s.stop() }
        let desktop = try LoopThread()
        desktop.start()
        defer { desktop.stop() }
        let session = FakeGnomeSession()
        let address = s.bus.address
        try session.appear(on: desktop, address: address)
        try s.start(arguments: ["--log-stderr", "--debug", "--time-scale", "600"])
        #expect(try s.property("Busy") == "b false")
        #expect(try s.string("BusySource") == "" && s.string("BusyReason") == "")
        #expect(try s.string("BusyPolicy") == "defer")
        let monitor = try BusMonitor(environment: s.environment) { _ = try s.property("State") }
        defer { monitor.stop() }

        let firefox = try App(address: address)
        defer { firefox.stop() }
        let cookie = try #require(try firefox.call("Inhibit", [.string("org.mozilla.firefox"), .uint32(0), .string("Playing video"), .uint32(8)])?.uint32)
        #expect(try waitUntil { try s.string("BusyReason") == "org.mozilla.firefox: Playing video" }, "log:\n\(s.log)")
        #expect(try s.property("Busy") == "b true")
        #expect(try s.string("BusySource") == "video")
        #expect(waitUntil { monitor.changedProperties.contains("Busy") && monitor.changedProperties.contains("BusyReason") })

        // The reminder falls due during the video: held, with no BreakDue, for several intervals.
        #expect(try waitUntil(timeout: 5) { try s.string("State") == "due" }, "log:\n\(s.log)")
        Thread.sleep(forTimeInterval: 3.5)
        #expect(try s.string("State") == "due")
        #expect(monitor.signals("BreakDue").isEmpty)
        #expect(monitor.signals("BreakSkipped").isEmpty)

        let released = Date()
        _ = try firefox.call("Uninhibit", [.uint32(cookie)])
        #expect(try waitUntil { try s.property("Busy") == "b false" }, "log:\n\(s.log)")
        #expect(try s.string("BusySource") == "" && s.string("BusyReason") == "")
        #expect(waitUntil(timeout: 5) { monitor.signals("BreakDue").count == 1 }, "log:\n\(s.log)")
        #expect(Date().timeIntervalSince(released) >= 0.2, "the reminder waits out the grace")
        Thread.sleep(forTimeInterval: 0.5)
        #expect(monitor.signals("BreakDue").count == 1, "once")
        #expect(s.log.contains("Busy (video): org.mozilla.firefox: Playing video."), "log:\n\(s.log)")
    }

    @Test func theAppQuittingEndsBusyAndAMissingSourceIsLoggedOnce() throws {
        let s = try ServiceHarness(start: false)
        defer { s.stop() }
        let desktop = try LoopThread()
        desktop.start()
        defer { desktop.stop() }
        let session = FakeGnomeSession()
        let address = s.bus.address
        try session.appear(on: desktop, address: address)
        try s.start()
        // gdbus leaves the bus as soon as it has the answer: gnome-session drops the inhibitor with it.
        let r = try Subprocess.run(["gdbus", "call", "--session", "--dest", "org.gnome.SessionManager", "--object-path", "/org/gnome/SessionManager",
                                    "--method", "org.gnome.SessionManager.Inhibit", "totem", "0", "Playing", "8"], environment: s.environment)
        #expect(r.status == 0, "\(r)")
        #expect(try waitUntil { try s.property("Busy") == "b false" && s.log.contains("No longer busy.") }, "log:\n\(s.log)")
        // Gone before its reason could be read: busy for a moment, without a reason.
        #expect(s.log.contains("Busy (video): "), "log:\n\(s.log)")
        #expect(s.log.components(separatedBy: "Plasma's PowerDevil is not on the session bus").count == 2, "logged once:\n\(s.log)")
    }

    /// Issue 40: GNOME Shell shows no banner over a full-screen window, and iCare's extension says
    /// when one is there. The reminder due meanwhile is held (never a skip), `icarectl status` says
    /// why, and it goes out once when the window leaves full screen.
    @Test func aReminderHeldWhileAWindowIsInFullScreenGoesOutWhenItLeaves() throws {
        // Interval 15 min at scale 600: 1.5 s.
        let s = try ServiceHarness(config: "Interval = 15m\n", start: false)
        defer { s.stop() }
        let desktop = try LoopThread()
        desktop.start()
        defer { desktop.stop() }
        let shell = FakeShellRing(fullscreen: true)
        try shell.appear(on: desktop, address: s.bus.address)
        try s.start(arguments: ["--log-stderr", "--debug", "--time-scale", "600"])
        #expect(try waitUntil { try s.string("BusySource") == "full-screen" }, "log:\n\(s.log)")
        #expect(try s.property("Busy") == "b true")
        let monitor = try BusMonitor(environment: s.environment) { _ = try s.property("State") }
        defer { monitor.stop() }
        #expect(try waitUntil(timeout: 5) { try s.string("State") == "due" }, "log:\n\(s.log)")
        Thread.sleep(forTimeInterval: 3.5)
        #expect(monitor.signals("BreakDue").isEmpty && monitor.signals("BreakSkipped").isEmpty)
        #expect(try s.number("SkippedToday") == 0)
        let status = try Subprocess.run([try Products.path("icarectl"), "status"], environment: s.environment)
        #expect(status.stdout.contains("full screen (GNOME Shell)"), "\(status)")

        try desktop.sync { shell.set(false) }
        #expect(try waitUntil { try s.property("Busy") == "b false" }, "log:\n\(s.log)")
        #expect(waitUntil(timeout: 5) { monitor.signals("BreakDue").count == 1 }, "log:\n\(s.log)")
        Thread.sleep(forTimeInterval: 0.5)
        #expect(monitor.signals("BreakDue").count == 1, "once")
        #expect(try s.number("SkippedToday") == 0)
        #expect(s.log.contains("Busy (full-screen): GNOME Shell."), "log:\n\(s.log)")
    }
}

