import Testing
import Foundation
import DBusKit
import SystemdKit
import TestSupport
import LoopSupport

/// The test loop thread ends what lives on its loop on that thread. A fake
/// program released by a test's last reference on the test's own thread
/// closed its connection under the running loop, and a call being
/// dispatched into it read a destroyed object: the whole test process
/// aborted ("Attempted to read an unowned reference").
@Suite struct LoopThreadTests {
    /// A program with one method that says on which thread its deinit ran.
    final class Probe: FakeBusProgram {
        let thread: LoopThread
        let endedOnLoop: Box<[Bool]>
        init(thread: LoopThread, endedOnLoop: Box<[Bool]>) {
            self.thread = thread
            self.endedOnLoop = endedOnLoop
            super.init(busName: "org.example.Probe")
        }
        deinit { endedOnLoop.value.append(thread.onLoopThread) }
        override func makeObjects() -> [ExportedObject] {
            [ExportedObject(path: ObjectPath("/org/example/Probe"), interfaces: [
                Interface("org.example.Probe", doc: "A probe.", methods: [
                    Method("Ping", out: [Argument("name", "s")], doc: "Answers its bus name.") { [unowned self] _ in [.string(busName)] },
                ]),
            ])]
        }
    }

    @Test func aFakeWhoseTestReferenceGoesFirstAnswersUntilStopAndEndsOnTheLoopThread() throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let lt = try LoopThread()
        lt.start()
        let ended = Box<[Bool]>([])
        do {
            let probe = Probe(thread: lt, endedOnLoop: ended)
            try probe.appear(on: lt, address: bus.address)
        }
        #expect(ended.value.isEmpty, "the loop thread keeps the fake while it runs")
        let ping = ["busctl", "--user", "call", "org.example.Probe", "/org/example/Probe", "org.example.Probe", "Ping"]
        let answer = try Subprocess.run(ping, environment: bus.environment)
        #expect(answer.stdout == "s \"org.example.Probe\"\n", "\(answer)")
        lt.stop()
        #expect(ended.value == [true], "ended once, on the loop thread")
        let gone = try Subprocess.run(["busctl", "--user", "call", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                       "NameHasOwner", "s", "org.example.Probe"], environment: bus.environment)
        #expect(gone.stdout == "b false\n", "it left the bus as it ended: \(gone)")
    }

    @Test func syncOnTheLoopThreadRunsAtOnceAndASecondStopReturns() throws {
        let lt = try LoopThread()
        lt.start()
        #expect(!lt.onLoopThread)
        let inner = try lt.sync { () -> Bool in
            // A harness released by a job's closure lands here: it must not wait for itself.
            let start = Date()
            let nested = (try? lt.sync { lt.onLoopThread }) ?? false
            return nested && Date().timeIntervalSince(start) < 1
        }
        #expect(inner, "a sync from the loop thread ran inline")
        lt.stop()
        let start = Date()
        lt.stop()
        #expect(Date().timeIntervalSince(start) < 1, "a second stop does not wait for a loop that has ended")
    }
}
