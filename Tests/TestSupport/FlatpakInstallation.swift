import Foundation

/// The bundles `scripts/flatpak --test-bundles DIR` wrote (ICARE_FLATPAK_BUNDLES=DIR), installed once per test
/// process into a scratch `--user` installation of its own (FLATPAK_USER_DIR), removed when the process exits.
public enum FlatpakInstallation {
    public static let runtimeBundle = "org.icare.Test.Platform.flatpak"
    public static let appBundle = "org.icare.Reminder.flatpak"
    private static let lock = NSLock()
    nonisolated(unsafe) private static var done: Result<String, HarnessError>?

    /// The folder of the bundles; throws (so the test fails) when ICARE_FLATPAK_BUNDLES names none.
    public static func bundles() throws -> String {
        let how = "run 'scripts/flatpak --test-bundles DIR' (as root), then 'ICARE_FLATPAK_BUNDLES=DIR swift test --filter FlatpakTests'"
        guard let dir = ProcessInfo.processInfo.environment["ICARE_FLATPAK_BUNDLES"], !dir.isEmpty else {
            throw HarnessError("ICARE_FLATPAK_BUNDLES names no folder of bundles: \(how)")
        }
        for file in [runtimeBundle, appBundle] where !FileManager.default.fileExists(atPath: dir + "/" + file) {
            throw HarnessError("ICARE_FLATPAK_BUNDLES=\(dir) has no \(file): \(how)")
        }
        return dir
    }

    /// The installation's folder, with the runtime and iCare installed from the bundles.
    public static func folder() throws -> String {
        try lock.withLock {
            if done == nil { done = Result { try install() }.mapError { $0 as? HarnessError ?? HarnessError("\($0)") } }
            return try done!.get()
        }
    }

    private static func install() throws -> String {
        let dir = try bundles()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("icare-flatpak-\(getpid())").path
        try? FileManager.default.removeItem(atPath: folder)
        atexit {
            try? FileManager.default.removeItem(atPath: FileManager.default.temporaryDirectory.appendingPathComponent("icare-flatpak-\(getpid())").path)
        }
        let flatpak = try Subprocess.which("flatpak")
        for bundle in [runtimeBundle, appBundle] {
            let r = try Subprocess.run([flatpak, "--user", "install", "-y", "--noninteractive", "--bundle", dir + "/" + bundle],
                                       environment: ["FLATPAK_USER_DIR": folder, "PATH": "/usr/bin:/bin"], timeout: 300)
            guard r.status == 0 else { throw HarnessError("flatpak install --bundle \(bundle) failed: \(r)") }
        }
        return folder
    }
}
