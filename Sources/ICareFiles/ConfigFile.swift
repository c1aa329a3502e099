import FileKit
import Glibc
import ReminderCore

/// The person's config file, `$XDG_CONFIG_HOME/icare/config`: a commented
/// key-file of `Key = value` lines, keys named after the settings
/// (`Interval = 20m`) and matched without regard to case.
///
/// The file belongs to the person. Loading never writes it. Writing a
/// setting changes only that setting's line, atomically, and keeps every
/// other byte: comments, order, unknown keys, even lines iCare cannot read.
public struct ConfigFile: Sendable {
    /// Where the file lives.
    public let path: String

    /// The config file at `path`.
    public init(path: String) { self.path = path }

    /// The config file of `paths` (`$XDG_CONFIG_HOME/icare/config`).
    public init(paths: XDGPaths) { self.init(path: paths.configFile) }

    /// The settings the file asks for, and what in it could not be used.
    ///
    /// - A missing file means every default, with no problem.
    /// - A key absent from the file gets its default, so removing a line by
    ///   hand restores the default.
    /// - A bad value is an error and that key keeps its value in `previous`.
    /// - An unknown key, a foreign `[group]` or a repeated key is a warning;
    ///   of repeated lines the last good one wins.
    /// - A file that cannot be read (too large, not a regular file, no
    ///   permission) is an error and `previous` is kept whole.
    ///
    /// `previous` is nil at start-up, when the defaults are what is kept.
    public func load(previous: Settings?) -> (settings: Settings, problems: [ConfigProblem]) {
        do {
            guard let bytes = try AtomicFile.readIfPresent(path, limit: Self.sizeLimit) else { return (Settings(), []) }
            return Self.parse(bytes, path: path, previous: previous ?? Settings())
        } catch {
            let kept = previous == nil ? "the defaults apply" : "the settings stay as they were"
            let problem = ConfigProblem(path: path, line: nil, severity: .error,
                                        message: "The file could not be read (\(error)); \(kept).")
            return (previous ?? Settings(), [problem])
        }
    }

    /// The largest config file read: a hand-written one is a few hundred bytes.
    public static let sizeLimit = 1 << 20

    /// The settings in `bytes`, by the rules of `load`.
    public static func parse(_ bytes: [UInt8], path: String, previous: Settings) -> (settings: Settings, problems: [ConfigProblem]) {
        var reader = ConfigReader(path: path, previous: previous)
        for line in ConfigDocument(bytes: bytes).lines { reader.read(line) }
        return (reader.settings, reader.problems)
    }

    /// Stores `value` for `key`, before the change is announced.
    ///
    /// Rewrites the file atomically (temp file, `fsync`, `rename`), changing
    /// only the last line that sets `key` and keeping its indentation, spacing
    /// and inline comment; else uncomments the template's `#Key = …` line for
    /// it; appends the key when neither is there; creates a
    /// commented file (`0600`, directory `0700`) when there is none. A
    /// symbolic link is kept: the file it points to is replaced. An
    /// invalid value is refused and nothing is written.
    public func write(_ key: SettingKey, _ value: SettingValue) throws(ConfigError) {
        let text: String
        do {
            // Written as the settings normalise it, so no stray text reaches the file.
            text = try Settings().setting(key, to: value).value(of: key).configText(for: key)
        } catch {
            throw .invalidValue(error)
        }
        do {
            guard let old = try AtomicFile.readIfPresent(path, limit: Self.sizeLimit) else {
                try Directory.ensure(Directory.parent(of: path))
                try AtomicFile.write(ConfigTemplate.text(setting: key, to: text), to: path)
                return
            }
            let new = Self.updated(old, key: key, text: text)
            if new != old { try AtomicFile.write(new, to: Self.replacementTarget(of: path)) }
        } catch {
            throw .file(error)
        }
    }

    /// The file a write replaces: when `path` is a symbolic link (a dotfiles
    /// checkout, say), the file it points to, so the link stays a link.
    static func replacementTarget(of path: String) -> String {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK, let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// `bytes` with `key` set to `text`: one line replaced, or one appended.
    static func updated(_ bytes: [UInt8], key: SettingKey, text: String) -> [UInt8] {
        let document = ConfigDocument(bytes: bytes)
        let target = document.lines.last { line in
            guard line.isICare, case .setting(let name) = line.parsed.kind else { return false }
            return SettingKey(name: name) == key
        }
        if let target {
            return Array(bytes[..<target.range.lowerBound]) + target.parsed.replacingValue(with: text)
                + bytes[target.range.upperBound...]
        }
        // The template's commented-out line for the key (`#Interval = 20m`) is
        // uncommented and set, so the setting stays under its explanation.
        let commented = document.lines.lazy.compactMap { line -> (ConfigDocument.Line, ConfigLine)? in
            guard line.isICare, let setting = line.parsed.commentedSetting,
                  case .setting(let name) = setting.kind, SettingKey(name: name) == key else { return nil }
            return (line, setting)
        }.last
        if let (line, setting) = commented {
            return Array(bytes[..<line.range.lowerBound]) + setting.replacingValue(with: text) + bytes[line.range.upperBound...]
        }
        var out = bytes
        if let last = out.last, last != UInt8(ascii: "\n") { out.append(UInt8(ascii: "\n")) }
        if !document.endsInICareGroup { out += Array("\n[iCare]\n".utf8) }
        out += Array("\(key.name) = \(text)\n".utf8)
        return out
    }
}
