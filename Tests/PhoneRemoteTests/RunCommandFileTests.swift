import Foundation
import Testing
import FileKit
import TestSupport
@testable import PhoneRemote

/// KDE Connect's Run command file as Qt itself reads and writes it: PyQt5's QSettings and QLockFile
/// (Qt 5.15, the Qt kdeconnectd 22.12 runs on) on one side, iCare's `RunCommandFile`, `QSettingsText`
/// and `QtLockFile` on the other. The real daemon reading what iCare wrote is in
/// IntegrationTests/PhoneRemoteTests.
@Suite struct RunCommandFileTests {
    let folder: String

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("icare-runcommand-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    /// Runs Python with PyQt5 (python3-pyqt5, scripts/deps.sh --test); fails when it is missing.
    static func qt(_ script: String, _ arguments: [String]) throws -> String {
        let r = try Subprocess.run(["/usr/bin/python3", "-c", "import sys\nfrom PyQt5.QtCore import *\n" + script] + arguments)
        guard r.status == 0 else { throw HarnessError("PyQt5 (python3-pyqt5: scripts/deps.sh --test) failed: \(r)") }
        return r.stdout
    }

    /// The person's own commands as KDE Connect's settings page writes them (QJsonDocument, compact),
    /// with what escaping can trip on: quotes, backslashes, non-ASCII, a hex digit after a non-ASCII byte.
    static let theirs = #"{"0f3b_uuid":{"command":"notify-send \"hi\" 'C:\\temp'","name":"Koffie ☕ 4a"},"a1":{"command":"true","name":"Lock screen; now=1"}}"#

    func writeWithQt(_ file: String, json: String) throws {
        _ = try Self.qt("""
            s = QSettings(sys.argv[1], QSettings.IniFormat)
            s.setValue("commands", QByteArray(sys.argv[2].encode("utf-8")))
            s.setValue("other", "kept")
            s.sync()
            """, [file, json])
    }

    func readWithQt(_ file: String) throws -> String {
        try Self.qt("""
            s = QSettings(sys.argv[1], QSettings.IniFormat)
            v = s.value("commands")
            sys.stdout.write(bytes(v).decode("utf-8") + "\\n" + s.value("other", ""))
            """, [file])
    }

    static let ours = PhoneCommands.members(icarectl: "/usr/bin/icarectl", names: PhoneCommandNames(
        start: "Pauze starten", snooze: "Uitstellen", skip: "Overslaan", pause: "Een uur pauzeren", resume: "Hervatten"), userPaused: false)

    @Test func qtsOwnFileIsReadAndTheirEntriesStayByteForByte() throws {
        let file = folder + "/config"
        try writeWithQt(file, json: Self.theirs)
        let before = try AtomicFile.read(file)
        let members = try #require(RunCommandFile.members(before))
        #expect(members.map(\.key) == ["0f3b_uuid", "a1"])
        let merged = try #require(try RunCommandFile.merged(before, ours: Self.ours, ourKeys: PhoneCommands.keys))
        try AtomicFile.write(merged, to: file)
        // Qt reads iCare's file: the person's entries exactly as they were, iCare's after them, the rest of the file kept.
        let read = try readWithQt(file).split(separator: "\n", maxSplits: 1).map(String.init)
        let expected = String(Self.theirs.dropLast()) + "," + Self.ours.map { String(decoding: $0.text, as: UTF8.self) }.joined(separator: ",") + "}"
        #expect(read == [expected, "kept"])
        // Once there, nothing to change; removing gives the person's list back, byte for byte.
        #expect(try RunCommandFile.merged(merged, ours: Self.ours, ourKeys: PhoneCommands.keys) == nil)
        let removed = try #require(try RunCommandFile.merged(merged, ours: [], ourKeys: PhoneCommands.keys))
        try AtomicFile.write(removed, to: file)
        #expect(try readWithQt(file) == Self.theirs + "\nkept")
    }

    @Test func qtsOwnRewriteSortingTheKeysNeedsNoWrite() throws {
        let file = folder + "/config"
        try AtomicFile.write(try #require(try RunCommandFile.merged(nil, ours: Self.ours, ourKeys: PhoneCommands.keys)), to: file)
        // KDE Connect's settings page adds an entry: QJsonDocument writes the object with its keys sorted.
        let sorted = try Self.qt("""
            import json
            s = QSettings(sys.argv[1], QSettings.IniFormat)
            d = QJsonDocument.fromJson(bytes(s.value("commands")))
            o = d.object(); o["zz"] = QJsonValue({"name": "Mine", "command": "true"})
            s.setValue("commands", QJsonDocument(o).toJson(QJsonDocument.Compact)); s.sync()
            print(bytes(s.value("commands")).decode())
            """, [file])
        #expect(sorted.hasPrefix(#"{"icare-pause""#), "\(sorted)")
        #expect(try RunCommandFile.merged(try AtomicFile.read(file), ours: Self.ours, ourKeys: PhoneCommands.keys) == nil)
    }

    @Test(arguments: [
        ("[General]\ncommands=@ByteArray({})\n", true),
        ("[General]\r\ncommands=\"@ByteArray({\\\"a\\\":{\\\"command\\\":\\\"x\\\",\\\"name\\\":\\\"y\\\"}})\"\r\n", true),
        ("[Other]\nx=1\n", true),
        ("", true),
        ("[General]\ncommands=not a byte array\n", false),
        ("[General]\ncommands=@ByteArray({\"a\":)\n", false),
        ("[General]\ncommands=@ByteArray([1,2])\n", false),
        ("[General]\ncommands=a, b\n", false),
    ])
    func anyFileEitherMergesOrIsLeftAlone(text: String, mergeable: Bool) throws {
        do {
            let merged = try #require(try RunCommandFile.merged(Array(text.utf8), ours: Self.ours, ourKeys: PhoneCommands.keys))
            #expect(mergeable)
            let file = folder + "/config"
            try AtomicFile.write(merged, to: file)
            // Qt reads the result, with iCare's entries in it, and every other line of the file kept.
            let read = try readWithQt(file)
            #expect(read.contains(#""icare-start":{"command":"'/usr/bin/icarectl' start","name":"Pauze starten"}"#), "\(read)")
            for line in text.split(whereSeparator: \.isNewline) where !line.hasPrefix("commands") {
                #expect(String(decoding: merged, as: UTF8.self).contains(line))
            }
        } catch is RunCommandFile.Problem {
            #expect(!mergeable)
        }
    }

    @Test func bytesRoundTripThroughQtsEscaping() throws {
        var bytes: [UInt8] = Array(0...255)
        bytes += Array("\u{7f}a\u{0}1 ;,=\"\\ end ".utf8)
        let encoded = QSettingsText.encodeByteArray(bytes)
        #expect(QSettingsText.decodeByteArray(encoded[...]) == bytes)
        let file = folder + "/bytes"
        try AtomicFile.write(Array("[General]\nv=".utf8) + encoded + [0x0A], to: file)
        let hex = try Self.qt("print(bytes(QSettings(sys.argv[1], QSettings.IniFormat).value('v')).hex())", [file])
        #expect(hex.trimmingCharacters(in: .whitespacesAndNewlines) == bytes.map { String(format: "%02x", $0) }.joined())
    }

    @Test func theLockIsQtsLock() throws {
        let file = folder + "/config"
        // Held by iCare: Qt's QLockFile cannot take it (and does not think it stale).
        do {
            let lock = try QtLockFile.lock(file)
            let qtTook = try Self.qt("l = QLockFile(sys.argv[1] + '.lock'); print(l.tryLock(0))", [file])
            #expect(qtTook.trimmingCharacters(in: .whitespacesAndNewlines) == "False")
            withExtendedLifetime(lock) {}
        }
        #expect(!FileManager.default.fileExists(atPath: file + ".lock"))
        // Held by a live Qt program: iCare waits for it.
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        holder.arguments = ["-c", """
            import sys
            from PyQt5.QtCore import QLockFile
            l = QLockFile(sys.argv[1] + '.lock'); assert l.tryLock(0); print('locked', flush=True); sys.stdin.read()
            """, file]
        let input = Pipe(), output = Pipe()
        holder.standardInput = input
        holder.standardOutput = output
        try holder.run()
        _ = output.fileHandleForReading.availableData
        #expect(throws: QtLockFile.Refusal.held) { _ = try QtLockFile.lock(file) }
        // Left behind by a Qt program that died: stale, so iCare takes it over.
        // SIGKILL: the test process blocks SIGTERM (its loops take it by signalfd), and a child keeps that mask.
        kill(holder.processIdentifier, SIGKILL)
        holder.waitUntilExit()
        #expect(FileManager.default.fileExists(atPath: file + ".lock"))
        let lock = try QtLockFile.lock(file)
        withExtendedLifetime(lock) {}
    }
}
