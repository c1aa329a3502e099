import Glibc

/// Where iCare keeps its files, following the XDG Base Directory specification.
///
/// | what | path | default |
/// | --- | --- | --- |
/// | config directory | `$XDG_CONFIG_HOME/icare` | `~/.config/icare` |
/// | state directory | `$XDG_STATE_HOME/icare` | `~/.local/state/icare` |
/// | the app's state directory | `$XDG_STATE_HOME/icare-app` | `~/.local/state/icare-app` |
/// | dconf database | `$XDG_CONFIG_HOME/dconf/user` | `~/.config/dconf/user` |
/// | runtime directory | `$XDG_RUNTIME_DIR/icare` | none (nil) |
///
/// As the specification says, an `XDG_*` value that is empty or not an
/// absolute path is ignored and the default is used.
public struct XDGPaths: Equatable, Sendable {
    /// `$XDG_CONFIG_HOME` itself (other programs' settings are beneath it: KDE Connect's).
    public let configHome: String
    /// `$XDG_CONFIG_HOME/icare`.
    public let configDirectory: String
    /// `$XDG_STATE_HOME/icare`.
    public let stateDirectory: String
    /// `$XDG_STATE_HOME/icare-app`: the app's own marks (its welcome seen), apart from icared's.
    public let appStateDirectory: String
    /// `$XDG_CONFIG_HOME/dconf/user`, the GVDB file dconf keeps GSettings in.
    public let dconfDatabase: String
    /// `$XDG_RUNTIME_DIR/icare`, for what lives only as long as the session
    /// (the notification on screen); nil when the variable is unset or not absolute.
    public let runtimeDirectory: String?

    /// The person's config file, `<config dir>/config`.
    public var configFile: String { configDirectory + "/config" }
    /// The break history, `<state dir>/history/` (ICareFiles' `HistoryStore`).
    public var historyDirectory: String { stateDirectory + "/history" }
    /// The restart-continuity file, `<state dir>/state` (ICareFiles' `StateFile`).
    public var stateFile: String { stateDirectory + "/state" }

    /// Resolves the paths from an environment (`HOME`, `XDG_CONFIG_HOME`,
    /// `XDG_STATE_HOME`, `XDG_RUNTIME_DIR`). Fails when a directory needs `HOME` and it is unset
    /// or not absolute.
    public init(environment: [String: String]) throws(XDGError) {
        let config = try Self.base(environment, "XDG_CONFIG_HOME", default: ".config")
        let state = try Self.base(environment, "XDG_STATE_HOME", default: ".local/state")
        configHome = config
        configDirectory = config + "/icare"
        stateDirectory = state + "/icare"
        appStateDirectory = state + "/icare-app"
        dconfDatabase = config + "/dconf/user"
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/"), runtime != "/" {
            runtimeDirectory = Self.trimmedSlashes(runtime) + "/icare"
        } else {
            runtimeDirectory = nil
        }
    }

    /// Resolves the paths from the process environment (`getenv`); when `HOME`
    /// is unset, the home directory from the password database (`getpwuid_r`).
    public static func fromProcessEnvironment() throws(XDGError) -> XDGPaths {
        var environment: [String: String] = [:]
        for name in ["HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_RUNTIME_DIR"] {
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        if environment["HOME", default: ""].isEmpty, let home = passwordDatabaseHome() {
            environment["HOME"] = home
        }
        return try XDGPaths(environment: environment)
    }

    /// `$name` if absolute, else `$HOME/fallback`; trailing slashes removed.
    private static func base(_ environment: [String: String], _ name: String, default fallback: String) throws(XDGError) -> String {
        if let value = environment[name], value.hasPrefix("/") { return trimmedSlashes(value) }
        guard let home = environment["HOME"], home.hasPrefix("/") else {
            throw XDGError(variable: name)
        }
        return trimmedSlashes(home) + "/" + fallback
    }

    private static func trimmedSlashes(_ path: String) -> String {
        var path = Substring(path)
        while path.count > 1, path.last == "/" { path.removeLast() }
        return path == "/" ? "" : String(path)
    }

    /// The current user's home directory from `getpwuid_r`, if any.
    private static func passwordDatabaseHome() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        return buffer.withUnsafeMutableBufferPointer { storage -> String? in
            guard let base = storage.baseAddress else { return nil }
            var entry = passwd()
            var result: UnsafeMutablePointer<passwd>? = nil
            guard getpwuid_r(getuid(), &entry, base, storage.count, &result) == 0,
                  result != nil, let dir = entry.pw_dir else { return nil }
            return String(cString: dir)
        }
    }
}

/// No usable directory: neither an absolute `XDG_*` value nor an absolute `HOME`.
public struct XDGError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The `XDG_*` variable whose directory could not be found.
    public let variable: String

    /// A missing base directory for `variable`.
    public init(variable: String) { self.variable = variable }

    /// One sentence a person can act on.
    public var description: String {
        "Neither \(variable) nor HOME is set to an absolute path, so iCare cannot tell where its files belong."
    }
}
