import Testing
import Foundation
import SystemdKit
import TestSupport
import LoopSupport
@testable import WaylandIdle

/// The binding's event handling through the real libwayland-client, against
/// `FakeCompositor` on the other end of a socketpair.
@Suite struct WatchTests {
    /// A watch on its own loop thread; records statuses and idle reports as text.
    final class Rig: @unchecked Sendable {
        let lt: LoopThread
        let compositor: FakeCompositor
        let events = Box<[String]>([])
        private var watch: WaylandIdleWatch?

        init(timeoutMs: UInt32 = 20_000) throws {
            compositor = try FakeCompositor()
            lt = try LoopThread()
            lt.start()
            let fd = compositor.clientFD
            let events = self.events
            try lt.sync {
                let w = try WaylandIdleWatch(fd: fd, loop: self.lt.loop, timeoutMs: timeoutMs)
                w.onIdle = { v in events.mutate { $0.append("idle \(v)") } }
                w.onStatus = { s in events.mutate { $0.append("\(s)") } }
                w.start()
                self.watch = w
            }
        }

        func onWatch<T>(_ body: @escaping (WaylandIdleWatch) -> T) throws -> T { try lt.sync { body(self.watch!) } }

        func expect(_ tail: [String], timeout: TimeInterval = 5) -> Bool {
            waitUntil(timeout: timeout) { events.value.suffix(tail.count) == ArraySlice(tail) }
        }

        func stop() {
            try? lt.sync { self.watch?.stop(); self.watch = nil }
            lt.stop()
            compositor.hangUp()
        }
    }

    /// The idle timeout object the client made: (id, timeout ms), for either protocol.
    static func timeouts(_ c: FakeCompositor) -> [(id: UInt32, ms: UInt32)] {
        guard let manager = c.binds.first(where: { $0.interface.contains("idle") }) else { return [] }
        return c.requests(to: manager.id).compactMap { r in
            if manager.interface == "org_kde_kwin_idle", r.opcode == 0 { return (r.u32(0), r.u32(2)) }  // get_idle_timeout(id, seat, timeout)
            if manager.interface == "ext_idle_notifier_v1", r.opcode == 1 { return (r.u32(0), r.u32(1)) }  // get_idle_notification(id, timeout, seat)
            return nil
        }
    }

    @Test func onSway17ItBindsTheSeatAndKdeIdleWithTheTimeoutAndReportsIdleAndResumed() throws {
        let rig = try Rig(timeoutMs: 20_000)
        defer { rig.stop() }
        let c = rig.compositor
        #expect(c.announce(FakeCompositor.sway17))
        #expect(rig.expect(["watching(WaylandIdle.IdleProtocol.kdeIdle)"]), "\(rig.events.value)")
        #expect(c.waitFor { _ in Self.timeouts(c).count == 1 }, "\(c.requests)")
        #expect(c.binds.map(\.interface).sorted() == ["org_kde_kwin_idle", "wl_seat"])
        #expect(c.binds.allSatisfy { $0.version == 1 })
        let seat = try #require(c.binds.first { $0.interface == "wl_seat" })
        let timeout = try #require(Self.timeouts(c).first)
        #expect(timeout.ms == 20_000)
        let manager = try #require(c.binds.first { $0.interface == "org_kde_kwin_idle" })
        #expect(c.requests(to: manager.id).first?.u32(1) == seat.id, "the timeout is for the bound seat")

        c.send(timeout.id, 0, [])   // org_kde_kwin_idle_timeout.idle
        #expect(rig.expect(["idle true"]))
        c.send(timeout.id, 0, [])   // a second idle is no news
        c.send(timeout.id, 1, [])   // resumed
        #expect(rig.expect(["idle true", "idle false"]))
        #expect(rig.events.value.filter { $0.hasPrefix("idle") } == ["idle true", "idle false"])
        #expect(try rig.onWatch { $0.idle } == false)
    }

    @Test func extIdleNotifyIsPreferredWhereBothAreOffered() throws {
        let rig = try Rig(timeoutMs: 15_000)
        defer { rig.stop() }
        let c = rig.compositor
        #expect(c.announce([(3, "org_kde_kwin_idle", 1), (4, "wl_seat", 8), (5, "ext_idle_notifier_v1", 1)]))
        #expect(rig.expect(["watching(WaylandIdle.IdleProtocol.extIdleNotify)"]), "\(rig.events.value)")
        #expect(c.waitFor { _ in Self.timeouts(c).count == 1 })
        #expect(c.binds.map(\.interface).sorted() == ["ext_idle_notifier_v1", "wl_seat"])
        let n = try #require(Self.timeouts(c).first)
        #expect(n.ms == 15_000)
        c.send(n.id, 0, [])   // ext_idle_notification_v1.idled
        #expect(rig.expect(["idle true"]))
        c.send(n.id, 1, [])   // resumed
        #expect(rig.expect(["idle false"]))
    }

    @Test(arguments: [
        [(1, "wl_seat", 7), (2, "wl_output", 4)],                       // no idle protocol (e.g. weston)
        [(1, "org_kde_kwin_idle", 1), (2, "wl_output", 4)],             // no seat
    ] as [[(UInt32, String, UInt32)]])
    func withoutAProtocolOrASeatItSaysUnsupportedAndBindsNothing(globals: [(UInt32, String, UInt32)]) throws {
        let rig = try Rig()
        defer { rig.stop() }
        let c = rig.compositor
        #expect(c.announce(globals))
        #expect(rig.expect(["unsupported"]), "\(rig.events.value)")
        // It disconnects: the compositor sees the socket close, after no bind.
        #expect(c.waitFor(timeout: 5) { _ in false } == false)
        #expect(c.binds.isEmpty)
        #expect(rig.events.value == ["unsupported"])
    }

    @Test func aNewTimeoutReplacesTheObjectAtOnceWhilePresentAndAtTheReturnWhileIdle() throws {
        let rig = try Rig(timeoutMs: 20_000)
        defer { rig.stop() }
        let c = rig.compositor
        #expect(c.announce(FakeCompositor.sway17))
        #expect(c.waitFor { _ in Self.timeouts(c).count == 1 })
        let first = Self.timeouts(c)[0]

        try rig.onWatch { $0.setTimeout(ms: 25_000) }
        #expect(c.waitFor { _ in Self.timeouts(c).count == 2 }, "\(c.requests)")
        let second = Self.timeouts(c)[1]
        #expect(second.ms == 25_000)
        #expect(c.requests(to: first.id).map(\.opcode) == [0], "the old timeout object is released (release is opcode 0)")
        #expect(try rig.onWatch { $0.activeTimeoutMs } == 25_000)

        // Idle: the change waits for the return, the object that said idle says resumed.
        c.send(second.id, 0, [])
        #expect(rig.expect(["idle true"]))
        try rig.onWatch { $0.setTimeout(ms: 10_000) }
        #expect(try rig.onWatch { $0.activeTimeoutMs } == 25_000)
        #expect(Self.timeouts(c).count == 2)
        c.send(second.id, 1, [])
        #expect(rig.expect(["idle false"]))
        #expect(c.waitFor { _ in Self.timeouts(c).count == 3 }, "\(c.requests)")
        #expect(Self.timeouts(c)[2].ms == 10_000)
        #expect(c.requests(to: second.id).map(\.opcode) == [0])
        // The same timeout again changes nothing.
        try rig.onWatch { $0.setTimeout(ms: 10_000) }
        #expect(!c.waitFor(timeout: 0.3) { _ in Self.timeouts(c).count > 3 })
    }

    @Test func theCompositorHangingUpWhileIdleIsNotIdleThenGoneOnce() throws {
        let rig = try Rig()
        defer { rig.stop() }
        let c = rig.compositor
        #expect(c.announce(FakeCompositor.sway17))
        #expect(c.waitFor { _ in Self.timeouts(c).count == 1 })
        c.send(Self.timeouts(c)[0].id, 0, [])
        #expect(rig.expect(["idle true"]))
        c.hangUp()
        #expect(rig.expect(["idle false", "gone(\"the compositor closed the connection\")"]), "\(rig.events.value)")
        // Nothing more, and the loop goes on (the fd is no longer watched).
        #expect(try rig.lt.sync { 42 } == 42)
        try rig.onWatch { $0.setTimeout(ms: 30_000) }
        #expect(rig.events.value.count == 4, "\(rig.events.value)")
    }

    @Test func aProtocolErrorFromTheCompositorEndsTheWatchQuietly() throws {
        let rig = try Rig()
        defer { rig.stop() }
        let c = rig.compositor
        #expect(c.announce(FakeCompositor.sway17))
        #expect(c.waitFor { _ in Self.timeouts(c).count == 1 })
        let t = Self.timeouts(c)[0]
        // wl_display.error(object, code, message)
        c.send(1, 0, [.uint(t.id), .uint(3), .string("test error")])
        #expect(rig.expect(["gone(\"protocol error 3 on org_kde_kwin_idle_timeout@\(t.id)\")"]), "\(rig.events.value)")
    }

    @Test(arguments: [
        // An event the timeout object does not have (opcode 7).
        ["event 7 for the timeout"],
        // wl_registry.global whose string runs past the end of the message.
        ["a string past the end"],
    ])
    func hostileBytesEndTheWatchWithoutACrash(what: [String]) throws {
        let rig = try Rig()
        defer { rig.stop() }
        let c = rig.compositor
        #expect(c.announce(FakeCompositor.sway17))
        #expect(c.waitFor { _ in Self.timeouts(c).count == 1 })
        let t = Self.timeouts(c)[0]
        if what == ["event 7 for the timeout"] {
            c.send(t.id, 7, [])
        } else {
            c.send(2, 0, [.uint(50), .uint(0xffff), .uint(1)])
        }
        #expect(waitUntil(timeout: 5) { rig.events.value.last?.hasPrefix("gone(") == true }, "\(rig.events.value)")
        c.hangUp()
        #expect(try rig.lt.sync { 1 } == 1)
        #expect(rig.events.value.filter { $0.hasPrefix("gone(") }.count == 1, "\(rig.events.value)")
    }

    @Test func theSeatGoingAwayEndsTheWatch() throws {
        let rig = try Rig()
        defer { rig.stop() }
        let c = rig.compositor
        #expect(c.announce(FakeCompositor.sway17))
        #expect(c.waitFor { _ in Self.timeouts(c).count == 1 })
        c.send(2, 1, [.uint(36)])   // wl_registry.global_remove(wl_seat's name)
        #expect(rig.expect(["gone(\"the compositor removed the seat or the idle manager\")"]), "\(rig.events.value)")
        c.send(2, 1, [.uint(1)])    // another global going away is no news
        #expect(try rig.lt.sync { 0 } == 0)
        #expect(rig.events.value.count == 2, "\(rig.events.value)")
    }
}
