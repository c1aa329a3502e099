import Foundation
import SystemdKit
import TestSupport

/// Runs an sd-event loop on its own thread for tests; everything touching
/// its connections happens on that thread, through `perform` or `sync`.
public final class LoopThread: @unchecked Sendable {
    public let loop: EventLoop
    private let lock = NSLock()
    private var jobs: [() -> Void] = []
    private var wake: EventSource?
    private var pipeFDs: [Int32] = [0, 0]
    private let finished = DispatchSemaphore(value: 0)

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

    /// Ends the loop and waits for its thread, so nothing outlives the test.
    public func stop() {
        perform { [loop] in loop.exit(0) }
        _ = finished.wait(timeout: .now() + 10)
    }
}
