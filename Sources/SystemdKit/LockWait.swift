import Glibc

/// Waits for an exclusive `flock` without waking the loop: a thread of its
/// own blocks in `flock(fd, LOCK_EX)` and, once the lock is granted, writes
/// to an eventfd the loop watches; the handler then runs on the loop. No
/// timer and no polling: until the holder lets go, nothing runs. (inotify's
/// close event comes before the kernel drops the closer's lock, so a retry
/// on it could miss the moment.)
///
/// The thread shares no memory with the loop, only the two descriptors,
/// handed over as one integer. It ends once the lock is granted; a process
/// that exits before then ends it too.
public final class LockWait {
    /// The pipe's read and write ends.
    private let pipe: (read: Int32, write: Int32)
    private var source: EventSource?
    private var granted = false

    /// Starts the wait on `fd` (an open file whose lock another open file holds).
    public init(loop: EventLoop, fd: Int32, _ handler: @escaping () -> Void) throws(SystemdError) {
        var ends: [Int32] = [0, 0]
        guard Glibc.pipe(&ends) == 0 else { throw SystemdError(function: "pipe", errno: errno) }
        pipe = (ends[0], ends[1])
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        do throws(SystemdError) {
            source = try loop.addIO(fd: pipe.read, events: IOEvents.readable.rawValue) { [unowned self] _ in
                var byte: UInt8 = 0
                guard read(self.pipe.read, &byte, 1) == 1 else { return }
                self.granted = true
                self.source?.cancel()
                handler()
            }
        } catch {
            close(pipe.read)
            close(pipe.write)
            throw error
        }
        let both = UInt(UInt32(bitPattern: fd)) << 32 | UInt(UInt32(bitPattern: pipe.write))
        var thread = pthread_t()
        let started = pthread_create(&thread, nil, { argument in
            let both = UInt(bitPattern: argument)
            let fd = Int32(truncatingIfNeeded: both >> 32), signal = Int32(truncatingIfNeeded: both & 0xFFFF_FFFF)
            while flock(fd, LOCK_EX) != 0 && errno == EINTR {}
            var one: UInt8 = 1
            _ = write(signal, &one, 1)
            return nil
        }, UnsafeMutableRawPointer(bitPattern: both))
        guard started == 0 else {
            source?.cancel()
            close(pipe.read)
            close(pipe.write)
            throw SystemdError(function: "pthread_create", errno: started)
        }
        pthread_detach(thread)
    }

    deinit {
        source?.cancel()
        // While the thread may still write to it, the pipe stays open (the process is ending then).
        if granted {
            close(pipe.read)
            close(pipe.write)
        }
    }
}
