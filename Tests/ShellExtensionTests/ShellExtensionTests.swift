import Testing
import Foundation
import ReminderCore
import RingDrawing
import TestSupport

/// iCare's GNOME Shell extension (gnome-extension/): its lint, the shape of
/// its metadata.json, what its code may not do on the Shell's thread, and its
/// ring's faces against the panel item's (RingFace). The extension on a real
/// GNOME Shell is the root tests' part.
@Suite struct ShellExtensionTests {
    static let folder = InstalledICare.repo.appendingPathComponent("gnome-extension")
    static let uuid = "ring@icare.org"

    /// Runs `script` as an ES module with gjs (from a file of its own, as `gjs -m` needs).
    static func gjs(_ script: String) throws -> ProcessResult {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("icare-gjs-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("script.js")
        try script.write(to: file, atomically: true, encoding: .utf8)
        return try Subprocess.run([try Subprocess.which("gjs"), "-m", file.path])
    }

    static func sources() throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "js" }.sorted { $0.path < $1.path }
    }

    /// Debian's eslint under a Node.js from elsewhere (NodeSource's) finds its
    /// modules only through NODE_PATH; Debian's own node has that folder already.
    static func eslint(_ arguments: [String], stdin: String? = nil) throws -> ProcessResult {
        let env = ["NODE_PATH": "/usr/share/nodejs"]
        let config = folder.appendingPathComponent("eslintrc.json").path
        return try Subprocess.run([try Subprocess.which("eslint"), "--no-eslintrc", "-c", config, "-f", "unix",
                                   "--max-warnings", "0"] + arguments, environment: env, stdin: stdin)
    }

    @Test func theLintFindsNothing() throws {
        let r = try Self.eslint([Self.folder.path])
        #expect(r.status == 0 && r.stdout.isEmpty, "\(r)")
    }

    /// The config is really in force: GNOME's style is checked, not only syntax.
    @Test func theLintCatchesWhatGnomesStyleForbids() throws {
        let bad = "var x = \"a\";\nexport function f() { return x }\n"
        let r = try Self.eslint(["--stdin", "--stdin-filename", Self.folder.appendingPathComponent("bad.js").path], stdin: bad)
        #expect(r.status != 0, "\(r)")
        for rule in ["no-var", "quotes", "semi"] {
            #expect(r.stdout.contains("/\(rule)]"), "\(rule) not reported: \(r)")
        }
    }

    @Test func metadataHasTheShapeExtensionsGnomeOrgTakes() throws {
        let data = try Data(contentsOf: Self.folder.appendingPathComponent("metadata.json"))
        let meta = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(meta["uuid"] as? String == Self.uuid)
        let uuid = try #require(meta["uuid"] as? String)
        #expect(uuid.range(of: #"^[A-Za-z0-9._-]+@[A-Za-z0-9._-]+\.[a-z]+$"#, options: .regularExpression) != nil)
        #expect(meta["shell-version"] as? [String] == ["45", "46", "47", "48", "49", "50"])
        // The project's one domain (scripts/po, the Makefile's icare.mo).
        #expect(meta["gettext-domain"] as? String == "icare")
        #expect((meta["url"] as? String)?.hasPrefix("https://") == true)
        #expect(!((meta["name"] as? String) ?? "").isEmpty && !((meta["description"] as? String) ?? "").isEmpty)
        let known: Set = ["uuid", "name", "description", "shell-version", "url", "gettext-domain",
                          "settings-schema", "session-modes", "version", "version-name", "donations"]
        #expect(Set(meta.keys).subtracting(known).isEmpty, "\(meta.keys)")
        // The make fragment installs to the folder named by the same uuid.
        let make = try String(contentsOf: Self.folder.appendingPathComponent("extension.mk"), encoding: .utf8)
        #expect(make.contains("shell_extension_uuid := \(uuid)"))
    }

    /// extensions.gnome.org's review rules for the Shell's thread: no
    /// synchronous D-Bus calls or file reads, no processes of its own.
    @Test func nothingBlocksTheShellOrSpawns() throws {
        let forbidden = ["_sync(", "call_sync", "load_contents(", "get_contents(", "file_get_contents", "spawn",
                         "Subprocess", "new_for_bus_sync", "imports.", "ExtensionUtils", "setTimeout", "setInterval"]
        for file in try Self.sources() {
            let text = try String(contentsOf: file, encoding: .utf8)
            for word in forbidden {
                #expect(!text.contains(word), "\(file.lastPathComponent) uses \(word)")
            }
        }
    }

    /// The ring's look, share and countdown, from ring.js run by gjs, equal
    /// RingFace's for the same status; its next redraw is never later than
    /// the panel item's next step.
    @Test func theRingMatchesThePanelItemsRing() throws {
        let now: Timestamp = 1_800_000_000_000_000
        let s = Micro.second
        let cases: [(ReminderStatus, interval: Int64, snooze: Int64, breakLength: Int64)] = [
            (ReminderStatus(state: .waiting, nextBreak: now + 1200 * s), 1200 * s, 300 * s, 20 * s),
            (ReminderStatus(state: .waiting, nextBreak: now + 731 * s + 400_000), 1200 * s, 300 * s, 20 * s),
            (ReminderStatus(state: .waiting, nextBreak: now + 59 * s), 2700 * s, 300 * s, 20 * s),
            (ReminderStatus(state: .waiting, nextBreak: now + 20 * s), 20 * s, 5 * s, 20 * s),
            (ReminderStatus(state: .snoozed, nextBreak: now + 200 * s), 1200 * s, 300 * s, 20 * s),
            (ReminderStatus(state: .snoozed, nextBreak: now + 900 * s), 1200 * s, 300 * s, 20 * s),
            (ReminderStatus(state: .break, breakEnds: now + 13 * s + 250_000), 1200 * s, 300 * s, 20 * s),
            (ReminderStatus(state: .break, breakEnds: now + 30 * s), 1200 * s, 300 * s, 30 * s),
            (ReminderStatus(state: .due, nextBreak: now - 5 * s), 1200 * s, 300 * s, 20 * s),
            (ReminderStatus(state: .paused, pauseReason: .dnd), 1200 * s, 300 * s, 20 * s),
            (ReminderStatus(state: .inactive, nextBreak: now + 3600 * s), 1200 * s, 300 * s, 20 * s),
        ]
        let lines = cases.map { c in
            "{state: '\(c.0.state.rawValue)', nextBreak: \(c.0.nextBreak), breakEnds: \(c.0.breakEnds), " +
                "interval: \(c.interval), snooze: \(c.snooze), breakLength: \(c.breakLength)}"
        }
        let ring = Self.folder.appendingPathComponent("ring.js").absoluteString
        let script = """
            import {faceOf} from '\(ring)';
            for (const status of [\(lines.joined(separator: ", "))])
                print(JSON.stringify(faceOf(status, \(now))));
            """
        let r = try Self.gjs(script)
        #expect(r.status == 0, "\(r)")
        let faces = r.stdout.split(separator: "\n").map { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
        }
        try #require(faces.count == cases.count, "\(r)")
        for (c, js) in zip(cases, faces) {
            let swift = RingFace.of(c.0, now: now, interval: c.interval, snooze: c.snooze, breakLength: c.breakLength)
            let label = "\(c.0.state) \(c.0.nextBreak - now) \(c.0.breakEnds - now)"
            #expect(js["look"] as? String == swift.look.rawValue, "\(label)")
            #expect(abs(((js["fraction"] as? Double) ?? -1) - swift.fraction) < 1e-9, "\(label): \(js) vs \(swift)")
            #expect((js["secondsLeft"] as? Int).map(Int64.init) == swift.secondsLeft, "\(label): \(js) vs \(swift)")
            let next = (js["nextChange"] as? NSNumber)?.int64Value
            if let step = swift.nextStep {
                let n = try #require(next, "\(label): no next change, the panel item steps at \(step)")
                #expect(n > now && n <= step, "\(label): \(n) vs \(step)")
            }
            if swift.secondsLeft == nil { #expect(next == nil, "\(label)") }
        }
    }
}
