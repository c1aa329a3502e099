import Foundation
import DBusKit
import SystemdKit
import TestSupport
import LoopSupport
@testable import DoNotDisturb
import DesktopWatch

/// A private bus, a loop thread, and a `DndMonitor` on its own connection,
/// with every `onChange` recorded as `"on <source>"` or `"off"`.
final class MonitorHarness: @unchecked Sendable {
    let bus: PrivateBus
    let loop: LoopThread
    let directory: URL
    let dconfPath: String
    let changes = Box<[String]>([])
    // Touched only on the loop thread.
    private var connection: Connection?
    private(set) var monitor: DndMonitor?

    /// `dconfPath` defaults to a file inside a folder that does not exist.
    init(bus: PrivateBus? = nil, dconfPath: String? = nil) throws {
        self.bus = try bus ?? PrivateBus()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("icare-dnd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.dconfPath = dconfPath ?? directory.appendingPathComponent("config/dconf/user").path
        loop = try LoopThread()
        loop.start()
    }

    /// Connects and starts the monitor on the loop thread; with `session`
    /// (an `XDG_CURRENT_DESKTOP`, "" for unset) it follows the desktop in use
    /// as icared does, without it every desktop's switch.
    func startMonitor(session: String? = nil) throws {
        let address = bus.address, path = dconfPath, changes = self.changes
        try loop.sync { [self] in
            let c = try Connection(address: address, loop: loop.loop)
            let log = Log(identifier: "dnd-test", forceStderr: true, threshold: .warning)
            let desktops = session.map { SessionDesktops(connection: c, log: log, currentDesktop: $0) }
            let m = DndMonitor(session: c, loop: loop.loop, log: log, dconfDatabasePath: path, desktops: desktops)
            m.onChange = { active, source in changes.value.append(active ? "on \(source)" : "off") }
            m.start()
            connection = c
            monitor = m
        }
    }

    /// Puts a fake provider on the bus (its own connection, on the loop thread, which ends it at `stop`).
    func appear(_ fake: FakeServer) throws { try fake.appear(on: loop, address: bus.address) }

    /// Runs `body` on the loop thread (to drive fakes or read the monitor).
    func sync<T>(_ body: @escaping () throws -> T) throws -> T { try loop.sync(body) }

    /// The monitor's combined state.
    func state() throws -> String {
        try sync { [self] in
            guard let m = monitor else { return "not started" }
            return m.active ? "on \(m.source)" : "off"
        }
    }

    /// Waits (bounded) until the combined state is `expected` (`"on kde"`, `"off"`).
    func waitFor(_ expected: String, timeout: TimeInterval = 5) throws -> Bool {
        try waitUntil(timeout: timeout) { try state() == expected }
    }

    /// Whether the monitor has had its first look at every provider.
    func settled() throws -> Bool { try sync { [self] in monitor?.settled ?? false } }

    /// The providers found, as the monitor lists them.
    func found() throws -> [String] { try sync { [self] in monitor?.providersFound ?? [] } }

    /// Waits until `source` is (or is not) among the providers found.
    func waitFound(_ source: String, _ present: Bool = true, timeout: TimeInterval = 5) throws -> Bool {
        try waitUntil(timeout: timeout) { try found().contains(source) == present }
    }

    /// How often `provider/kind` occurred, and how many problem lines were logged in all.
    func problems(_ key: String) throws -> (occurrences: Int, linesLogged: Int) {
        try sync { [self] in (monitor?.problems.occurrences[key] ?? 0, monitor?.problems.linesLogged ?? 0) }
    }

    /// Tears everything down on the loop thread, then stops the loop and the bus.
    func stop() {
        stopKeepingBus()
        bus.stop()
    }

    /// Tears down the monitor, the fakes and the loop, leaving the bus to whoever shares it.
    func stopKeepingBus() {
        _ = try? loop.sync { [self] in
            monitor = nil
            connection?.close()
            connection = nil
        }
        loop.stop()
        try? FileManager.default.removeItem(at: directory)
    }
}
