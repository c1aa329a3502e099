internal import CCanberra
import Glibc

/// One `icared --play-sound NAME THEME` process, seen from the service: it
/// is spawned from the service's own binary with every descriptor but
/// stdio closed and no signal blocked; its stdout is a pipe for its line of
/// detail, and a pidfd becomes readable when it exits.
final class SoundProcess {
    let name: String
    let pid: pid_t
    /// Readable once the process has exited.
    let exitFD: Int32
    private let output: Int32

    /// Starts the process; nil and why when it could not be started.
    static func spawn(_ executable: String, name: String, theme: String) -> (SoundProcess?, String) {
        var pipe: [Int32] = [-1, -1]
        guard icare_pipe_cloexec(&pipe) == 0 else { return (nil, "no pipe: \(String(cString: strerror(errno)))") }
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, pipe[1], 1)
        _ = icare_spawn_close_from(&actions, 3)
        // The loop blocks the signals it handles (SIGTERM, SIGINT); the sound's process takes them as usual.
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGPIPE, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let arguments = ["icared", SoundChild.option, name, theme]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for a in argv { free(a) } }
        var pid: pid_t = 0
        let made = posix_spawn(&pid, executable, &actions, &attributes, &argv, environ)
        close(pipe[1])
        guard made == 0 else {
            close(pipe[0])
            return (nil, "cannot start icared \(SoundChild.option): \(String(cString: strerror(made)))")
        }
        let exitFD = icare_pidfd_open(pid)
        guard exitFD >= 0 else {
            let why = String(cString: strerror(errno))
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            close(pipe[0])
            return (nil, "cannot watch the sound's process (pidfd_open: \(why))")
        }
        return (SoundProcess(name: name, pid: pid, exitFD: exitFD, output: pipe[0]), "")
    }

    private init(name: String, pid: pid_t, exitFD: Int32, output: Int32) {
        self.name = name
        self.pid = pid
        self.exitFD = exitFD
        self.output = output
    }

    deinit {
        close(exitFD)
        close(output)
    }

    /// Reaps the exited process and reads its outcome (no waiting: it has exited).
    func outcome(killed: Bool) -> SoundOutcome {
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return .failed("the sound's process could not be reaped") }
        var buffer = [UInt8](repeating: 0, count: 512)
        let count = read(output, &buffer, buffer.count)
        let detail = String(decoding: buffer.prefix(max(0, count)), as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
        if killed { return .timedOut }
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift cannot import (macros).
        if status & 0x7f == 0 { return SoundOutcome(status: (status >> 8) & 0xff, detail: detail) }
        return .failed("the sound's process ended by signal \(status & 0x7f)")
    }
}
