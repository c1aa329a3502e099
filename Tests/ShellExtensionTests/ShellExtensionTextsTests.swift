import Testing
import Foundation
import ReminderCore
import TestSupport

/// The ring menu's words from texts.js run by gjs, equal to the panel item's
/// and icarectl's (`TallyText`) for the same counts: skipped and missed apart,
/// missed said only when there is one.
@Suite struct ShellExtensionTextsTests {
    @Test func todaysTallySaysWhatTheOtherFacesSay() throws {
        let counts: [(UInt32, UInt32, UInt32)] = [(0, 0, 0), (5, 1, 0), (5, 1, 2), (0, 0, 1)]
        let texts = ShellExtensionTests.folder.appendingPathComponent("texts.js").absoluteString
        // The Shell adds String.prototype.format (%d and %s, in order); plain gjs has none, so the script does
        // the same for these two. `t` stands for the extension with no catalog: gettext gives the English text.
        let script = """
            import {tally} from '\(texts)';
            String.prototype.format = function (...values) { let i = 0; return this.replace(/%[ds]/g, () => String(values[i++])); };
            const t = {gettext: s => s, ngettext: (one, many, n) => n === 1 ? one : many};
            for (const [completedToday, skippedToday, missedToday] of \(counts.map { [$0.0, $0.1, $0.2] }))
                print(tally(t, {completedToday, skippedToday, missedToday}));
            """
        let r = try ShellExtensionTests.gjs(script)
        #expect(r.status == 0, "\(r)")
        let want = counts.map { c in
            "Today: " + TallyText.today(ReminderStatus(state: .waiting, completedToday: c.0, skippedToday: c.1, missedToday: c.2))
        }
        #expect(r.stdout.split(separator: "\n").map(String.init) == want)
        #expect(want[2] == "Today: 5 completed, 1 skipped, 2 missed" && want[1] == "Today: 5 completed, 1 skipped")
    }

    /// The menu's "iCare cannot see everything here…" follows the same rule as the panel item's: an entry
    /// of `Capabilities` that is missing (not one that works in part, or is off).
    @Test func theMenuOffersThisDesktopOnlyWhileSomethingIsMissing() throws {
        let texts = ShellExtensionTests.folder.appendingPathComponent("texts.js").absoluteString
        let script = """
            import {cannotSee} from '\(texts)';
            print(cannotSee([]));
            print(cannotSee([['reminder-buttons', 'works', 'a'], ['calls', 'limited', 'b'], ['sounds', 'off', 'c']]));
            print(cannotSee([['reminder-buttons', 'works', 'a'], ['time-away', 'missing', 'b']]));
            """
        let r = try ShellExtensionTests.gjs(script)
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout == "false\nfalse\ntrue\n", "\(r)")
    }
}
