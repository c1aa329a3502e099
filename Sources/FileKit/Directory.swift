import Glibc

/// Directory operations iCare needs: create (mode `0700`), sync, list.
public enum Directory {
    /// Creates `path` and any missing parents with mode `0700` (`mkdir`), like
    /// `mkdir -p`. Directories that already exist keep their mode: they are
    /// the person's. Fails with `ENOTDIR` when something else is in the way.
    public static func ensure(_ path: String) throws(FileError) {
        var missing: [String] = []
        var current = path
        // Walk up until an existing directory; a path has finitely many parents.
        while !current.isEmpty, current != "/" {
            var info = stat()
            if stat(current, &info) == 0 {
                guard info.st_mode & S_IFMT == S_IFDIR else {
                    throw FileError(function: "mkdir", path: current, code: ENOTDIR)
                }
                break
            }
            let code = errno
            guard code == ENOENT else { throw FileError(function: "stat", path: current, code: code) }
            missing.append(current)
            current = parent(of: current)
        }
        for directory in missing.reversed() {
            if mkdir(directory, 0o700) != 0, errno != EEXIST {
                throw FileError(function: "mkdir", path: directory, code: errno)
            }
        }
    }

    /// Flushes the directory's entries to the disk, so a rename or a new file
    /// in it survives a power cut (`fsync` on the directory).
    package static func sync(_ path: String) throws(FileError) {
        try FileDescriptor.openDirectory(path).sync()
    }

    /// The names in `path` except `.` and `..` (`opendir`, `readdir`); an
    /// absent directory has none.
    public static func names(in path: String) throws(FileError) -> [String] {
        guard let stream = opendir(path) else {
            let code = errno
            if code == ENOENT { return [] }
            throw FileError(function: "opendir", path: path, code: code)
        }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    /// The directory part of `path` (`/a/b/c` → `/a/b`, `c` → ``).
    package static func parent(of path: String) -> String {
        var bytes = Array(path.utf8)
        while bytes.count > 1, bytes.last == UInt8(ascii: "/") { bytes.removeLast() }
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return "" }
        return slash == 0 ? "/" : String(decoding: bytes[..<slash], as: UTF8.self)
    }
}
