import Foundation
import DBusKit
import SystemdKit
import TestSupport
import LoopSupport
@testable import Busy

/// A private bus, a loop thread, a `BusyMonitor`, fake desktop programs and
/// a client connection that inhibits the way a browser or a player does.
final class BusyHarness: @unchecked Sendable {
    let bus: PrivateBus
    let loop: LoopThread
    let changes = Box<[String]>([])
    // Touched only on the loop thread.
    private var monitor: BusyMonitor?
    private var clients: [Connection] = []

    init() throws {
        bus = try PrivateBus()
        loop = try LoopThread()
        loop.start()
    }

    deinit { loop.stop() }

    func startMonitor() throws {
        let address = bus.address, changes = self.changes
        try loop.sync { [self] in
            let c = try Connection(address: address, loop: loop.loop)
            // The bus sources alone: PipeWire has its own tests with the real daemon (PipeWireBusyTests).
            let m = BusyMonitor(session: c, log: Log(identifier: "busy-test", forceStderr: true, threshold: .warning), pipeWire: false)
            m.onChange = { changes.value.append(Self.text($0)) }
            m.start()
            monitor = m
        }
    }

    static func text(_ s: BusyState) -> String { s.active ? "busy \(s.source): \(s.reason)" : "free" }

    func state() throws -> String { try loop.sync { [self] in monitor.map { Self.text($0.state) } ?? "not started" } }
    func found() throws -> [String] { try loop.sync { [self] in monitor?.sourcesFound ?? [] } }

    func waitFor(_ expected: String) throws -> Bool { try waitUntil { try state() == expected } }

    /// Puts a fake on the bus, on the loop thread, which ends it when the harness goes.
    func appear(_ fake: FakeBusProgram) throws { try fake.appear(on: loop, address: bus.address) }

    func vanish(_ fake: FakeBusProgram) throws { try loop.sync { fake.vanish() } }

    /// A new client connection (an app); returns its index.
    func client() throws -> Int {
        let address = bus.address
        return try loop.sync { [self] in
            clients.append(try Connection(address: address, loop: loop.loop))
            return clients.count - 1
        }
    }

    /// Calls `member` on `destination` from client `i`; waits for the reply's first value.
    func call(_ i: Int, _ destination: String, _ path: String, _ interface: String, _ member: String,
              _ arguments: [DBusValue]) throws -> DBusValue? {
        let reply = Box<Result<Message, DBusError>?>(nil)
        try loop.sync { [self] in
            clients[i].call(.methodCall(destination: BusName(destination), path: ObjectPath(path), interface: InterfaceName(interface),
                                        member: MemberName(member), arguments: arguments)) { reply.value = $0 }
        }
        guard waitUntil(timeout: 5, { reply.value != nil }), case .success(let m)? = reply.value else {
            throw HarnessError("\(member) failed: \(String(describing: reply.value))")
        }
        return try loop.sync { try m.arguments().first }
    }

    /// Client `i` leaves the bus (the app quits or crashes).
    func closeClient(_ i: Int) throws { try loop.sync { [self] in clients[i].close() } }
}
