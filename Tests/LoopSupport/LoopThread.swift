import Foundation
import SystemdKit
import TestSupport

/// Runs an sd-event loop on its own thread for tests; everything touching
/// its connections happens on that thread, through `perform` or `sync`.
///
/// Objects whose sources live on the loop (a fake program's connection) must
/// also end on that thread: released by a test's last reference on the test's
/// own thread while the loop runs, a connection would be closed under the
/// loop's feet, and a call being dispatched into the dying fake would read a
/// destroyed object. `keepUntilStop` hands such an object to the thread,
/// which ends it on the loop when `stop` is called, before the loop exits.
public final class LoopThread: @unchecked Sendable {
    public let loop: EventLoop
    private let lock = NSLock()
    private var jobs: [() -> Void] = []
    private var wake: EventSource?
    private var pipeFDs: [Int32] = [0, 0]
    private let finished = DispatchSemaphore(value: 0)
    private var thread: pthread_t?                                  // under lock
    private var stopped = false                                     // under lock
    private var kept: [ObjectIdentifier: () -> Void] = [:]          // loop thread only

    public init() throws {
        loop = try EventLoop()
        guard pipe(&pipeFDs) == 0 else { throw HarnessError("pipe failed") }
        let readFD = pipeFDs[0]
        wake = try loop.addIO(fd: readFD, events: IOEvents.readable.rawValue) { [unowned self] _ in
            var buf = [UInt8](repeating: 0, count: 64)
            _ = read(readFD, &buf, 64)
            self.lock.lock()
            let todo = self.jobs
            self.jobs.removeAll()
            self.lock.unlock()
            todo.forEach { $0() }
        }
    }

    public func start() {
        Thread { [self] in
            self.lock.lock()
            self.thread = pthread_self()
            self.lock.unlock()
            _ = try? self.loop.run()
            self.finished.signal()
        }.start()
    }

    /// Runs `job` on the loop thread, later.
    public func perform(_ job: @escaping () -> Void) {
        lock.lock()
        jobs.append(job)
        lock.unlock()
        var b: UInt8 = 1
        _ = write(pipeFDs[1], &b, 1)
    }

    /// Runs `body` on the loop thread and returns its result.
    public func sync<T>(_ body: @escaping () throws -> T) throws -> T {
        // Already on the loop (a harness released by a job's closure): waiting for itself would stall.
        if onLoopThread { return try body() }
        let done = DispatchSemaphore(value: 0)
        let result = Box<Result<T, Error>?>(nil)
        perform {
            do { result.value = .success(try body()) } catch { result.value = .failure(error) }
            done.signal()
        }
        guard done.wait(timeout: .now() + 10) == .success, let r = result.value else {
            throw HarnessError("the loop thread did not answer in 10 s")
        }
        return try r.get()
    }

    /// Whether the caller runs on the loop's thread.
    public var onLoopThread: Bool {
        lock.lock()
        defer { lock.unlock() }
        return thread.map { pthread_equal($0, pthread_self()) != 0 } ?? false
    }

    /// Keeps `object` until `stop`, which runs `end` on the loop thread before
    /// the loop exits (once per object; a later call replaces `end`). Call on
    /// the loop thread.
    public func keepUntilStop(_ object: AnyObject, end: @escaping () -> Void) {
        kept[ObjectIdentifier(object)] = { withExtendedLifetime(object) { end() } }
    }

    /// Ends what it keeps, then the loop, on the loop thread, and waits for
    /// the thread, so nothing outlives the test.
    public func stop() {
        lock.lock()
        let again = stopped
        stopped = true
        lock.unlock()
        guard !again else { return }
        let ending = { [self] in
            let ends = kept
            kept.removeAll()
            ends.values.forEach { $0() }
            loop.exit(0)
        }
        if onLoopThread { return ending() }
        perform(ending)
        _ = finished.wait(timeout: .now() + 10)
    }
}
