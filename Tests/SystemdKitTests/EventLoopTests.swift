import Testing
import Glibc
import SystemdKit

/// The sd-event binding: each kind of source fires, in order, and ends the loop cleanly.
@Suite struct EventLoopTests {
    @Test func timersOnEveryClockFireInDeadlineOrder() throws {
        let loop = try EventLoop()
        var order: [String] = []
        let now = (Clock.monotonic.now(), Clock.boottime.now(), Clock.realtime.now())
        let a = try loop.addTimer(clock: .boottime, at: now.1 + 30_000, accuracy: 1) { order.append("boottime") }
        let b = try loop.addTimer(clock: .monotonic, at: now.0 + 10_000, accuracy: 1) { order.append("monotonic") }
        let c = try loop.addTimer(clock: .realtime, at: now.2 + 50_000, accuracy: 1) {
            order.append("realtime")
            loop.exit(7)
        }
        #expect(try loop.run() == 7)
        #expect(order == ["monotonic", "boottime", "realtime"])
        #expect(Clock.monotonic.now() - now.0 >= 50_000)
        _ = (a, b, c)
    }

    @Test func aOneShotTimerReArmedAtItsDeadlineDoesNotDrift() throws {
        let loop = try EventLoop()
        let start = Clock.monotonic.now()
        var fired: [UInt64] = []
        var source: EventSource?
        source = try loop.addTimer(clock: .monotonic, at: start + 20_000, accuracy: 1) {
            fired.append(Clock.monotonic.now())
            if fired.count == 10 { loop.exit(0); return }
            source!.setTime(source!.time + 20_000)
            source!.setEnabled(.oneshot)
        }
        _ = try loop.run()
        // Ten ticks 20 ms apart: the last lands near start + 200 ms, not later by accumulated lateness.
        let last = fired.last! - start
        #expect(last >= 200_000 && last < 240_000, "last tick at \(last) µs")
    }

    @Test func ioSourcesSeeReadableData() throws {
        let loop = try EventLoop()
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        var got = ""
        let io = try loop.addIO(fd: fds[0], events: IOEvents.readable.rawValue) { revents in
            #expect(IOEvents(rawValue: revents).contains(.readable))
            var buf = [UInt8](repeating: 0, count: 16)
            let n = read(fds[0], &buf, 16)
            got = String(decoding: buf[0..<max(0, n)], as: UTF8.self)
            loop.exit(0)
        }
        let writer = try loop.addDefer { _ = write(fds[1], "ping", 4) }
        _ = try loop.run()
        #expect(got == "ping")
        _ = (io, writer)
    }

    @Test func signalsArriveThroughTheLoop() throws {
        let loop = try EventLoop()
        var seen: Int32 = 0
        let s = try loop.addSignal(SIGUSR1) { signo in
            seen = signo
            loop.exit(0)
        }
        // raise() signals this thread, the one whose mask sd-event changed.
        let d = try loop.addDefer { raise(SIGUSR1) }
        _ = try loop.run()
        #expect(seen == SIGUSR1)
        _ = (s, d)
    }

    @Test func inotifyReportsAFileReplacedInAFolder() throws {
        let loop = try EventLoop()
        var template = Array("/tmp/icare-inotify-XXXXXX".utf8CString)
        let dir = String(cString: mkdtemp(&template)!)
        defer { _ = unlink(dir + "/config"); _ = unlink(dir + "/.config.tmp"); rmdir(dir) }
        var names: [String] = []
        let watch = try loop.addInotify(path: dir, mask: UInt32(IN_MOVED_TO) | UInt32(IN_CLOSE_WRITE)) { mask, name in
            names.append(name)
            if mask & UInt32(IN_MOVED_TO) != 0 { loop.exit(0) }
        }
        let writer = try loop.addDefer {
            let fd = open(dir + "/.config.tmp", O_CREAT | O_WRONLY, 0o600)
            _ = write(fd, "x", 1)
            close(fd)
            rename(dir + "/.config.tmp", dir + "/config")
        }
        _ = try loop.run()
        #expect(names == [".config.tmp", "config"])
        _ = (watch, writer)
    }

    @Test func aCancelledSourceNeverFires() throws {
        let loop = try EventLoop()
        var fired = false
        let t = try loop.addTimer(clock: .monotonic, at: Clock.monotonic.now() + 1_000, accuracy: 1) { fired = true }
        t.cancel()
        let end = try loop.addTimer(clock: .monotonic, at: Clock.monotonic.now() + 20_000, accuracy: 1) { loop.exit(0) }
        _ = try loop.run()
        #expect(!fired)
        _ = end
    }

    @Test func failuresNameTheCFunction() {
        #expect(throws: SystemdError.self) {
            _ = try EventLoop().addInotify(path: "/nonexistent/folder", mask: UInt32(IN_CLOSE_WRITE)) { _, _ in }
        }
        let e = SystemdError(function: "sd_event_add_inotify", errno: ENOENT)
        #expect(e.description == "sd_event_add_inotify: No such file or directory")
    }
}
