import Foundation

/// A program watched by strace for docs/privacy.md (PrivacyWatchTests): every file it opens, creates,
/// renames, removes, changes the mode of, watches or checks for, every program it runs, every socket it opens,
/// connects or sends to, in the processes and threads it starts. strace runs around scripts/unit-sandbox (the sandbox's system call filter has
/// no ptrace, so strace cannot run inside it); only what follows the sandbox's `execve` of the program,
/// in that process and the processes it starts, is the program's.
public final class SyscallWatch: @unchecked Sendable {
    public static let syscalls = ["open", "openat", "?openat2", "creat", "mkdir", "mkdirat", "rename", "renameat", "renameat2",
                                  "unlink", "unlinkat", "rmdir", "link", "linkat", "symlink", "symlinkat", "chmod", "fchmod",
                                  "fchmodat", "truncate", "ftruncate", "inotify_add_watch", "access", "faccessat", "?faccessat2", "execve", "socket", "connect", "bind",
                                  "sendto", "sendmsg", "clone", "clone3", "fork", "vfork"]
    public let directory: URL
    let strace: String

    public init() throws {
        strace = try Subprocess.which("strace")
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("icare-strace-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// What goes before the sandbox's command: one output file per process (`trace.PID`), file
    /// descriptors shown with their paths.
    public var launcher: [String] {
        [strace, "-ff", "-qq", "-y", "--pidns-translation", "-s", "1024", "-o", directory.appendingPathComponent("trace").path,
         "-e", "trace=" + Self.syscalls.joined(separator: ","), "--"]
    }

    /// The program's processes and, for each, its lines (for the first, those after its `execve`).
    public func lines(of program: String) throws -> [Int32: [Substring]] {
        var files: [Int32: [Substring]] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) where name.hasPrefix("trace.") {
            guard let pid = Int32(name.dropFirst("trace.".count)) else { continue }
            let text = try String(contentsOfFile: directory.appendingPathComponent(name).path, encoding: .utf8)
            files[pid] = text.split(separator: "\n")
        }
        let exec = "execve(\"\(program)\", "
        guard let (root, rootLines) = files.first(where: { $0.value.contains { $0.hasPrefix(exec) && $0.hasSuffix(" = 0") } }),
              let start = rootLines.firstIndex(where: { $0.hasPrefix(exec) && $0.hasSuffix(" = 0") }) else {
            throw HarnessError("strace saw no execve of \(program) in \(directory.path)")
        }
        var mine: [Int32: [Substring]] = [root: Array(rootLines[start...])]
        var queue = [root]
        while let pid = queue.popLast() {
            for line in mine[pid] ?? [] {
                guard ["clone(", "clone3(", "fork(", "vfork("].contains(where: { line.hasPrefix($0) }),
                      let child = Self.child(line), child > 0, mine[child] == nil else { continue }
                mine[child] = files[child] ?? []
                queue.append(child)
            }
        }
        return mine
    }

    /// The process a clone or fork made, as strace names its output file: inside a sandbox's PID namespace
    /// (Flatpak's bwrap) the call returns the namespace's id, which `--pidns-translation` follows with
    /// strace's own (`= 2 /* 5170 in strace's PID NS */`).
    static func child(_ line: Substring) -> Int32? {
        if let comment = line.range(of: " /* "), line.hasSuffix(" in strace's PID NS */") {
            return line[comment.upperBound...].split(separator: " ").first.flatMap { Int32($0) }
        }
        return line.split(separator: " ").last.flatMap { Int32($0) }
    }

    /// The record of the program's processes, normalized; and how many times each (normalized) unix
    /// socket was connected to successfully.
    public func record(of program: String, normalize: PathNormalizer) throws -> (record: PrivacyRecord, connects: [String: Int]) {
        var record = PrivacyRecord()
        var connects: [String: Int] = [:]
        for (_, lines) in try lines(of: program) {
            var descriptors: [String: String] = [:]
            for line in lines {
                guard let call = Syscall(line) else { continue }
                call.describe(into: &record, connects: &connects, descriptors: &descriptors, normalize: normalize)
            }
        }
        return (record, connects)
    }

    public func remove() { try? FileManager.default.removeItem(at: directory) }
}

/// One line of strace's output, `name(arguments) = result`.
struct Syscall {
    let name: String
    let arguments: String
    let result: String
    /// The arguments' quoted strings, unescaped.
    let strings: [String]
    /// The paths strace shows beside file descriptors (`5</path>`, `AT_FDCWD</cwd>`), in order.
    let descriptorPaths: [String]

    init?(_ line: Substring) {
        guard let open = line.firstIndex(of: "("), let equals = line.range(of: ") = ", options: .backwards) else { return nil }
        name = String(line[..<open])
        arguments = String(line[line.index(after: open)..<equals.lowerBound])
        result = String(line[equals.upperBound...])
        strings = Self.quoted(arguments)
        descriptorPaths = Self.matches(#"(?:AT_FDCWD|[0-9]+)<([^>]*)>"#, in: arguments)
    }

    static func matches(_ pattern: String, in text: String) -> [String] {
        guard let re = try? NSRegularExpression(pattern: pattern) else { return [] }
        return re.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { m in
            Range(m.range(at: 1), in: text).map { String(text[$0]) }
        }
    }

    /// strace's C strings, unescaped (`\"`, `\\`, `\n`, `\xNN`).
    static func quoted(_ text: String) -> [String] {
        var out: [String] = [], current: [UInt8] = [], inside = false
        var bytes = Array(text.utf8)[...]
        while let b = bytes.popFirst() {
            if !inside {
                if b == UInt8(ascii: "\"") { inside = true; current = [] }
                continue
            }
            switch b {
            case UInt8(ascii: "\""):
                out.append(String(decoding: current, as: UTF8.self))
                inside = false
            case UInt8(ascii: "\\"):
                guard let e = bytes.popFirst() else { break }
                switch e {
                case UInt8(ascii: "n"): current.append(10)
                case UInt8(ascii: "t"): current.append(9)
                case UInt8(ascii: "x"):
                    let hex = String(decoding: bytes.prefix(2), as: UTF8.self)
                    bytes = bytes.dropFirst(2)
                    current.append(UInt8(hex, radix: 16) ?? 0)
                default: current.append(e)
                }
            default: current.append(b)
            }
        }
        return out
    }

    /// `path` made absolute against the directory strace showed for the call's directory descriptor.
    func absolute(_ path: String) -> String {
        guard !path.hasPrefix("/"), let base = descriptorPaths.first else { return path }
        return base + "/" + path
    }

    var writes: Bool {
        ["O_WRONLY", "O_RDWR", "O_CREAT", "O_TRUNC"].contains { arguments.contains($0) } || name == "creat"
    }

    func describe(into record: inout PrivacyRecord, connects: inout [String: Int], descriptors: inout [String: String],
                  normalize: PathNormalizer) {
        var seen: [(String, String)] = []
        // A write the sandbox (or the file's mode) forbids is said as such.
        let refused = ["-1 EROFS", "-1 EACCES", "-1 EPERM"].contains { result.hasPrefix($0) }
        func file(_ path: String, _ verb: String) { seen.append((path, verb == "writes" && refused ? "is refused" : verb)) }
        defer { for (path, verb) in seen { record.add("files", normalize(path), verb) } }
        switch name {
        case "open", "openat", "openat2", "creat":
            guard let path = strings.first.map(absolute) else { return }
            if let fd = result.split(separator: "<").first.map(String.init), Int(fd) != nil { descriptors[fd] = path }
            // A descriptor that only names a place (to watch it, to bind it): no read, no write.
            if arguments.contains("O_PATH") { return }
            file(path, writes ? "writes" : "reads")
        case "inotify_add_watch":
            guard let path = strings.first else { return }
            let fd = path.hasPrefix("/proc/self/fd/") ? String(path.dropFirst("/proc/self/fd/".count)) : nil
            file(fd.flatMap { descriptors[$0] } ?? absolute(path), "watches")
        case "access", "faccessat", "faccessat2":
            if let path = strings.first { file(absolute(path), "checks") }
        case "fchmod", "ftruncate":
            // Only a file's descriptor (not a memfd's, a socket's or a pipe's).
            if let path = descriptorPaths.first, path.hasPrefix("/"), !path.hasPrefix("/memfd:") { file(path, "writes") }
        case "execve":
            if let path = strings.first { file(path, "runs") }
        case "symlink", "symlinkat":
            if let path = strings.last { file(absolute(path), "writes") }
        case "mkdir", "mkdirat", "rename", "renameat", "renameat2", "unlink", "unlinkat", "rmdir", "link", "linkat",
             "chmod", "fchmodat", "truncate":
            for path in strings { file(absolute(path), "writes") }
        case "socket":
            if let family = arguments.split(separator: ",").first { record.add("sockets", String(family), "opens") }
        case "connect", "sendto", "sendmsg", "bind":
            let paths = Self.matches(#"sun_path=(@?"[^"]*")"#, in: arguments).map {
                ($0.hasPrefix("@") ? "@" : "") + (Self.quoted($0).first ?? "")
            }
            let verb = ["connect": "connects", "bind": "binds"][name] ?? "sends to"
            for path in paths {
                let item = normalize(path)
                record.add("sockets", item, verb)
                if name == "connect" && result.hasPrefix("0") { connects[item, default: 0] += 1 }
            }
            if paths.isEmpty && name != "sendmsg" && name != "sendto", let family = Self.matches(#"sa_family=([A-Z0-9_]+)"#, in: arguments).first {
                record.add("sockets", family, verb)
            }
        default:
            return
        }
    }
}
