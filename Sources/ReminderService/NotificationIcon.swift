import Glibc

/// The notification's icon: the themed name `org.icare.Reminder` where an
/// icon theme can find it (after `make install`: `hicolor/scalable/apps` in
/// `$XDG_DATA_HOME` or `$XDG_DATA_DIRS`), else the SVG's own file, sent as
/// `app_icon` (a `file://` URI) and the `image-path` hint — e.g. when icared
/// runs from the build folder, where a name resolves to nothing and servers
/// draw a broken-image icon (xfce4-notifyd) or none (notification-daemon).
struct NotificationIcon: Equatable, Sendable {
    /// `Notify`'s `app_icon` argument.
    let appIcon: String
    /// The `image-path` hint, when the file is used.
    let imagePath: String?

    static let relativePath = "icons/hicolor/scalable/apps/" + Texts.iconName + ".svg"

    /// Looks once, at start: installing the icon later takes a restart.
    static func resolve(environment: (String) -> String? = { getenv($0).map { String(cString: $0) } }) -> NotificationIcon {
        for base in dataDirectories(environment) where isFile(base + "/" + relativePath) {
            return NotificationIcon(appIcon: Texts.iconName, imagePath: nil)
        }
        if let file = besideExecutable() {
            let uri = "file://" + file
            return NotificationIcon(appIcon: uri, imagePath: uri)
        }
        return NotificationIcon(appIcon: Texts.iconName, imagePath: nil)
    }

    /// `$XDG_DATA_HOME` (default `~/.local/share`) and `$XDG_DATA_DIRS` (default `/usr/local/share:/usr/share`).
    static func dataDirectories(_ environment: (String) -> String?) -> [String] {
        var dirs: [String] = []
        if let home = environment("XDG_DATA_HOME"), home.hasPrefix("/") {
            dirs.append(home)
        } else if let home = environment("HOME"), home.hasPrefix("/") {
            dirs.append(home + "/.local/share")
        }
        let list = environment("XDG_DATA_DIRS").flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share"
        dirs += list.split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
        return dirs
    }

    /// The icon next to the running program: `<prefix>/share/…` of an
    /// installation outside the data directories, or the source tree's
    /// `data/icons/` above a build folder (`.build/<triple>/debug/icared`).
    static func besideExecutable() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        var dir = String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        for _ in 0..<5 {
            guard let slash = dir.lastIndex(of: "/"), slash != dir.startIndex else { return nil }
            dir = String(dir[..<slash])
            for candidate in [dir + "/share/" + relativePath, dir + "/data/icons/" + Texts.iconName + ".svg"] where isFile(candidate) {
                return candidate
            }
        }
        return nil
    }

    private static func isFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }
}
