import Foundation

extension DesktopRoot {
    /// The package the roots test: the file `ICARE_DEB` names (scripts/test sets it after `scripts/test-deb`).
    public static func package() throws -> String {
        guard let deb = ProcessInfo.processInfo.environment["ICARE_DEB"], !deb.isEmpty else {
            throw HarnessError("ICARE_DEB names no package: run 'make deb', then "
                               + "'ICARE_DEB=$PWD/build/deb/icare_VERSION-1_amd64.deb swift test --filter RootDesktopTests' (scripts/test does both)")
        }
        guard FileManager.default.fileExists(atPath: deb) else {
            throw HarnessError("ICARE_DEB=\(deb) is no file: run 'make deb' (it writes build/deb/icare_VERSION-1_amd64.deb)")
        }
        return deb
    }

    /// Builds or reuses the root and installs the package into it, once per test process and release
    /// (the script reuses both across runs); throws, so the test fails, with the script's words.
    public static func prepare(_ release: Release) throws {
        if let error = Preparations.shared.result(release, { try makeReady(release) }) { throw HarnessError(error) }
    }

    private static func makeReady(_ release: Release) throws {
        let deb = try package()
        let build = try Subprocess.run([script, "build", release.rawValue], environment: hostEnvironment, timeout: 1800)
        guard build.status == 0 else { throw HarnessError("scripts/desktop-root build \(release) failed:\n\(build.stderr)") }
        let install = try Subprocess.run([script, "install-deb", release.rawValue, deb], environment: hostEnvironment, timeout: 600)
        guard install.status == 0 else { throw HarnessError("scripts/desktop-root install-deb \(release) \(deb) failed:\n\(install.stderr)") }
    }
}

/// Each release is made ready once per process; later callers get the same outcome.
final class Preparations: @unchecked Sendable {
    static let shared = Preparations()
    private let lock = NSLock()
    private var outcomes: [DesktopRoot.Release: String] = [:]

    /// nil when `make` succeeded (now or before), else its error.
    func result(_ release: DesktopRoot.Release, _ make: () throws -> Void) -> String? {
        lock.lock()
        defer { lock.unlock() }
        if let outcome = outcomes[release] { return outcome.isEmpty ? nil : outcome }
        do {
            try make()
            outcomes[release] = ""
            return nil
        } catch {
            outcomes[release] = "\(error)"
            return "\(error)"
        }
    }
}
