import Foundation
import TestSupport

/// iCare installed the way its package installs it (TestSupport's
/// `InstalledICare`: `make install` of this build into a temporary prefix)
/// once for the whole suite, since every test runs the same installed
/// files; removed when the test process exits. The sessions put its `share`
/// first on XDG_DATA_DIRS, so Plasma's tray finds the icon in the theme as on
/// a person's machine, and the tests run its `bin/icared`.
enum SuiteInstall {
    private struct Outcome: @unchecked Sendable { let installed: InstalledICare?; let failure: String }

    private static let outcome: Outcome = {
        do {
            let installed = try InstalledICare()
            atexit { SuiteInstall.outcome.installed?.remove() }
            return Outcome(installed: installed, failure: "")
        } catch {
            return Outcome(installed: nil, failure: "\(error)")
        }
    }()

    /// The installed iCare; throws (the test fails) when the install failed.
    static func installed() throws -> InstalledICare {
        guard let installed = outcome.installed else { throw HarnessError(outcome.failure) }
        return installed
    }
}
