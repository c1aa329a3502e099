import Foundation
import TestSupport

/// iCare installed the way its package installs it — `make install` of this
/// test build's binaries (BINSRC) into a temporary prefix — once for the
/// whole suite: the icon in the hicolor theme, the desktop entry, the D-Bus
/// activation file. The sessions put the prefix's `share` first on
/// XDG_DATA_DIRS, so Plasma's tray finds the icon as on a person's machine;
/// the tests run the installed `bin/icared`. The prefix is removed when the
/// test process exits.
enum InstalledICare {
    private struct Outcome: Sendable { let prefix: String?; let failure: String }

    static let folder = FileManager.default.temporaryDirectory.appendingPathComponent("icare-plasma-install-\(getpid())").path
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    private static let outcome: Outcome = {
        let prefix = folder + "/prefix"
        do {
            let r = try Subprocess.run([try Subprocess.which("make"), "-C", repo.path, "BINSRC=\(Products.binDirectory)",
                                        "install", "PREFIX=\(prefix)"], timeout: 300)
            guard r.status == 0 else { return Outcome(prefix: nil, failure: "make install failed: \(r)") }
            atexit { try? FileManager.default.removeItem(atPath: InstalledICare.folder) }
            return Outcome(prefix: prefix, failure: "")
        } catch {
            return Outcome(prefix: nil, failure: "make install failed: \(error)")
        }
    }()

    /// The installed prefix; throws (the test fails) when the install failed.
    static func prefix() throws -> String {
        guard let prefix = outcome.prefix else { throw HarnessError(outcome.failure) }
        for file in ["bin/icared", "share/icons/hicolor/scalable/apps/org.icare.Reminder.svg",
                     "share/applications/org.icare.Reminder.desktop"] where !FileManager.default.fileExists(atPath: prefix + "/" + file) {
            throw HarnessError("make install did not write \(file) in \(prefix)")
        }
        return prefix
    }
}
