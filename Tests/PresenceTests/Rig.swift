import Foundation
import DBusKit
import SystemdKit
import TestSupport
import LoopSupport
@testable import Presence

/// A `PresenceMonitor` on its own loop thread, with a private session bus and
/// (optionally) a private system-type bus; records every callback as text.
final class Rig: @unchecked Sendable {
    let session: PrivateBus
    let system: PrivateBus?
    let lt: LoopThread
    /// "locked true", "idle false", "sleep true", … in order.
    let events = Box<[String]>([])
    private var monitor: PresenceMonitor!
    private var connections: [Connection] = []

    init(systemBus: Bool) throws {
        session = try PrivateBus()
        system = systemBus ? try PrivateBus(system: true) : nil
        lt = try LoopThread()
        lt.start()
    }

    /// Connects, builds the monitor (with `waylandDisplay` as WAYLAND_DISPLAY), sets `threshold` and starts it.
    func start(threshold: UInt32 = 20, waylandDisplay: String? = nil) {
        let events = self.events
        lt.onLoop {
            let s = try! Connection(address: self.session.address, loop: self.lt.loop)
            let y = self.system.map { try! Connection(address: $0.address, loop: self.lt.loop) }
            self.connections = [s] + (y.map { [$0] } ?? [])
            let log = Log(identifier: "presence-test", forceStderr: true, threshold: .info)
            let m = PresenceMonitor(session: s, system: y, loop: self.lt.loop, log: log, waylandDisplay: waylandDisplay)
            m.onLocked = { [events] v in events.mutate { $0.append("locked \(v)") } }
            m.onIdle = { [events] v in events.mutate { $0.append("idle \(v)") } }
            m.onSleep = { [events] v in events.mutate { $0.append("sleep \(v)") } }
            m.setIdleThreshold(seconds: threshold)
            m.start()
            self.monitor = m
        }
    }

    /// Runs `body` with the monitor on its loop thread.
    func onMonitor<T>(_ body: @escaping (PresenceMonitor) -> T) -> T {
        lt.onLoop { body(self.monitor) }
    }

    var found: [String] { onMonitor { $0.sourcesFound } }
    var logged: [String] { onMonitor { $0.logged } }

    /// Waits until the events end with `tail`.
    func expectEvents(endingWith tail: [String], timeout: TimeInterval = 10) -> Bool {
        waitUntil(timeout: timeout) { events.value.suffix(tail.count) == ArraySlice(tail) }
    }

    func waitFound(_ source: String, timeout: TimeInterval = 10) -> Bool {
        waitUntil(timeout: timeout) { self.found.contains(source) }
    }

    /// Waits until a logged line containing `text` appears.
    func waitLogged(_ text: String, timeout: TimeInterval = 10) -> Bool {
        waitUntil(timeout: timeout) { self.logged.contains { $0.contains(text) } }
    }

    func count(logged text: String) -> Int { logged.filter { $0.contains(text) }.count }

    func stop() {
        lt.onLoop {
            self.monitor = nil
            self.connections.forEach { $0.close() }
            self.connections = []
        }
        lt.stop()
        session.stop()
        system?.stop()
    }
}

/// The fake Mutter on a loop thread of its own (a separate "process").
final class MutterRig: @unchecked Sendable {
    let lt: LoopThread
    private var fake: FakeMutter?

    init(bus: PrivateBus) throws {
        lt = try LoopThread()
        lt.start()
        try appear(bus: bus)
    }

    /// Starts a fresh Mutter on `bus` (after `quit`, like a restarted gnome-shell).
    func appear(bus: PrivateBus) throws {
        let error = lt.onLoop { () -> String? in
            do { self.fake = try FakeMutter(address: bus.address, loop: self.lt.loop); return nil } catch { return "\(error)" }
        }
        if let error { throw HarnessError("fake Mutter: \(error)") }
    }

    func with<T>(_ body: @escaping (FakeMutter) -> T) -> T { lt.onLoop { body(self.fake!) } }
    var calls: [String] { with { $0.calls } }

    func quit() { lt.onLoop { self.fake?.quit(); self.fake = nil } }

    func stop() {
        quit()
        lt.stop()
    }
}

extension LoopThread {
    /// `sync` for the rigs' non-throwing helpers: the loop thread not answering
    /// within its bound means the harness itself is broken, so stop loudly.
    func onLoop<T>(_ body: @escaping () -> T) -> T {
        do { return try sync(body) } catch { fatalError("presence test rig: \(error)") }
    }
}
