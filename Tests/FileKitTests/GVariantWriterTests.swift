import FileSupport
import Foundation
import Testing
@testable import FileKit

/// The writer against GLib itself (python3-gi): for each value, GLib parses
/// its text form and serialises it, and GLib reads the writer's bytes back.
@Suite struct GVariantWriterTests {
    /// GSConnect's Run command list as iCare will write it: `a{sv}`, each value an `a{ss}`.
    static func commandList(_ entries: [(key: String, name: String, command: String)]) -> GVariantWriter.Value {
        .dictionary(entries.map { entry in
            (entry.key, .variant(.dictionary([("name", .string(entry.name)), ("command", .string(entry.command))], of: .string)))
        }, of: .variant)
    }

    static let gsconnectKey = "/org/gnome/shell/extensions/gsconnect/device/abc/plugin/runcommand/command-list"

    /// Values of every kind the writer knows, small and empty.
    static let small: [GVariantWriter.Value] = [
        .boolean(true), .boolean(false),
        .string(""), .string("hello"), .string("Pauze — oogpauze ☕ 👁 ünïcödé"), .string("it's a \\ \"quote\"\nand\ttab"),
        .variant(.boolean(true)), .variant(.string("x")), .variant(.variant(.string("nested"))),
        .variant(.dictionary([], of: .string)), .variant(.array(.variant, [])),
        .maybe(.variant, nil), .maybe(.variant, .variant(.boolean(false))), .maybe(.boolean, .boolean(true)),
        .maybe(.boolean, nil), .maybe(.string, .string("")), .maybe(.string, nil),
        .maybe(.maybe(.boolean), .maybe(.boolean, nil)), .maybe(.maybe(.string), .maybe(.string, .string("a"))),
        .array(.string, []), .array(.boolean, []), .array(.boolean, [.boolean(true), .boolean(false), .boolean(true)]),
        .array(.string, [.string("a"), .string(""), .string("bc")]),
        .dictionary([], of: .string), .dictionary([], of: .variant), .dictionary([], of: .maybe(.variant)),
        .dictionary([("a", .string("b"))], of: .string),
        .dictionary([("one", .variant(.boolean(true))), ("two", .variant(.string("2")))], of: .variant),
        .array(.array(.dictionaryEntry(.string, .variant)), [.dictionary([], of: .variant), .dictionary([("k", .variant(.string("v")))], of: .variant)]),
        .array(.maybe(.string), [.maybe(.string, nil), .maybe(.string, .string("x")), .maybe(.string, nil)]),
        .array(.variant, [.variant(.boolean(true)), .variant(.string("s")), .variant(.boolean(false))]),
        .array(.dictionaryEntry(.boolean, .variant), [.dictionaryEntry(.boolean(true), .variant(.dictionary([], of: .string)))]),
        .array(.dictionaryEntry(.boolean, .boolean), [.dictionaryEntry(.boolean(true), .boolean(false)), .dictionaryEntry(.boolean(false), .boolean(true))]),
        .dictionaryEntry(.string("a"), .boolean(true)), .dictionaryEntry(.boolean(true), .string("s")),
        .dictionaryEntry(.boolean(false), .boolean(true)), .dictionaryEntry(.string("k"), .variant(.string("v"))),
        .dictionaryEntry(.string("k"), .maybe(.variant, nil)),
        commandList([("key", "Start eye break", "/usr/bin/icarectl start")]),
    ]

    /// Containers around the limits of 1-, 2- and 4-byte framing offsets.
    static let large: [GVariantWriter.Value] = {
        var values: [GVariantWriter.Value] = []
        for length in 248...258 {
            values.append(.array(.string, [.string(String(repeating: "x", count: length))]))
            values.append(.array(.string, [.string(String(repeating: "é", count: length / 4)), .string(String(repeating: "y", count: length / 2))]))
            values.append(.dictionaryEntry(.string(String(repeating: "k", count: length)), .string("v")))
            values.append(.variant(.string(String(repeating: "v", count: length))))
        }
        for length in [65_520, 65_529, 65_530, 65_531, 65_532, 65_533, 65_534, 65_536] {
            values.append(.array(.string, [.string(String(repeating: "z", count: length))]))
            values.append(.dictionary([("a", .string(String(repeating: "w", count: length)))], of: .string))
        }
        values.append(.array(.string, (0..<200).map { .string("break-\($0)") }))
        values.append(commandList((0..<60).map { ("icare-\($0)", "Pauzeer één uur \($0)", "'/usr/bin/icarectl' pause 1h") }))
        return values
    }()

    @Test func smallValuesAsGLibWritesThem() throws {
        try GLibVariants.compare(Self.small)
    }

    @Test func framingOffsetWidthsAsGLibChoosesThem() throws {
        try GLibVariants.compare(Self.large)
    }

    @Test func changesetAsGLibWritesIt() throws {
        let changes: [(path: String, value: GVariantWriter.Value?)] = [
            (Self.gsconnectKey, Self.commandList([("key", "Start eye break", "/usr/bin/icarectl start")])),
            ("/org/gnome/shell/extensions/gsconnect/device/abc/plugin/runcommand/", nil),
            ("/org/example/flag", .boolean(true)),
            ("/org/example/name", nil),
        ]
        let bytes = try GVariantWriter.dconfChangeset(changes)
        let changeset: GVariantWriter.Value = .dictionary(changes.map { ($0.path, .maybe(.variant, $0.value.map { .variant($0) })) }, of: .maybe(.variant))
        #expect(try bytes == GVariantWriter.serialise(changeset))
        try GLibVariants.compare([changeset])
        let printed = try GLibVariants.printed(bytes, type: "a{smv}")
        #expect(printed == "{'\(Self.gsconnectKey)': @mv <{'key': <{'name': 'Start eye break', 'command': '/usr/bin/icarectl start'}>}>, "
            + "'/org/gnome/shell/extensions/gsconnect/device/abc/plugin/runcommand/': nothing, "
            + "'/org/example/flag': <true>, '/org/example/name': nothing}")
        #expect(try GVariantWriter.dconfChangeset([]) == [])
    }

    @Test func commandListPrintsAsGSConnectShowsIt() throws {
        let bytes = try GVariantWriter.serialise(Self.commandList([("key", "Start eye break", "/usr/bin/icarectl start")]))
        #expect(try GLibVariants.printed(bytes, type: "a{sv}") == "{'key': <{'name': 'Start eye break', 'command': '/usr/bin/icarectl start'}>}")
    }

    @Test func refusesWhatGVariantOrDconfCannotHold() {
        #expect(throws: GVariantWriter.Problem.zeroInString("a\u{0}b")) { try GVariantWriter.serialise(.string("a\u{0}b")) }
        #expect(throws: GVariantWriter.Problem.wrongKind(expected: "s", found: "b")) {
            try GVariantWriter.serialise(.array(.string, [.string("a"), .boolean(true)]))
        }
        #expect(throws: GVariantWriter.Problem.wrongKind(expected: "v", found: "s")) {
            try GVariantWriter.serialise(.maybe(.variant, .string("a")))
        }
        #expect(throws: GVariantWriter.Problem.keyNotBasic("v")) {
            try GVariantWriter.serialise(.dictionaryEntry(.variant(.boolean(true)), .boolean(true)))
        }
        for path in ["", "org/a", "/org//a", "/org/a//"] {
            #expect(throws: GVariantWriter.Problem.notADconfPath(path)) { try GVariantWriter.dconfChangeset([(path, nil)]) }
        }
        #expect(throws: GVariantWriter.Problem.notADconfPath("/org/a/")) { try GVariantWriter.dconfChangeset([("/org/a/", .boolean(true))]) }
        #expect(throws: Never.self) { try GVariantWriter.dconfChangeset([("/org/a/", nil), ("/", nil), ("/org/a", .boolean(true))]) }
    }
}

/// GLib's side of the comparisons, through the system's Python with PyGObject.
enum GLibVariants {
    static let python = "/usr/bin/python3"

    /// For each value: GLib parses its text (`GVariantText`) and serialises it; GLib reads the
    /// writer's bytes back as normal form and prints them. Both must match, for every value.
    static func compare(_ values: [GVariantWriter.Value]) throws {
        var cases: [[String: String]] = []
        for value in values {
            cases.append(["type": value.kind.typeString, "text": GVariantText.of(value), "mine": hex(try GVariantWriter.serialise(value))])
        }
        let answers = try run(script: """
            for case in cases:
                t = GLib.VariantType(case['type'])
                theirs = GLib.Variant.parse(t, case['text'], None, None)
                mine = GLib.Variant.new_from_bytes(t, GLib.Bytes(bytes.fromhex(case['mine'])), False)
                answers.append({'glib': theirs.get_data_as_bytes().get_data().hex(), 'normal': str(mine.is_normal_form()),
                                'mine': mine.print_(True), 'theirs': theirs.print_(True)})
            """, cases: cases)
        try #require(answers.count == cases.count)
        for (asked, answer) in zip(cases, answers) {
            let what = "\(asked["type"]!) \(asked["text"]!.prefix(120))"
            #expect(answer["glib"] == asked["mine"], "bytes differ from GLib's for \(what)")
            #expect(answer["normal"] == "True", "GLib finds the bytes not in normal form for \(what)")
            #expect(answer["mine"] == answer["theirs"], "GLib reads back another value for \(what)")
        }
    }

    /// GLib's `g_variant_print` (with type annotations) of `bytes` read as `type`.
    static func printed(_ bytes: [UInt8], type: String) throws -> String {
        let answers = try run(script: """
            for case in cases:
                v = GLib.Variant.new_from_bytes(GLib.VariantType(case['type']), GLib.Bytes(bytes.fromhex(case['mine'])), False)
                answers.append({'printed': v.print_(True)})
            """, cases: [["type": type, "mine": hex(bytes)]])
        return try #require(answers.first?["printed"])
    }

    /// Runs `script` with `cases` (JSON) and returns its `answers` (JSON); files, not pipes, so large values cannot block.
    private static func run(script: String, cases: [[String: String]]) throws -> [[String: String]] {
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw TestFailure("\(python) is missing: the GVariant writer is tested against GLib through Python; install python3-gi.")
        }
        let temp = try TemporaryDirectory()
        let program = """
            import json, sys
            try:
                from gi.repository import GLib
            except ImportError as error:
                sys.exit('PyGObject is missing (install python3-gi): %s' % error)
            cases = json.load(open(sys.argv[1], encoding='utf-8'))
            answers = []
            \(script)
            json.dump(answers, open(sys.argv[2], 'w', encoding='utf-8'))
            """
        try writeFixture(program, to: temp.join("compare.py"))
        try writeFixture([UInt8](try JSONSerialization.data(withJSONObject: cases)), to: temp.join("cases.json"))
        _ = FileManager.default.createFile(atPath: temp.join("errors"), contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [temp.join("compare.py"), temp.join("cases.json"), temp.join("answers.json")]
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: temp.join("errors")))
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw TestFailure("python3 with GLib failed (\(process.terminationStatus)): \(try text(temp.join("errors")))")
        }
        let answers = try JSONSerialization.jsonObject(with: Data(try contents(temp.join("answers.json"))))
        guard let list = answers as? [[String: String]] else { throw TestFailure("python3 answered \(answers)") }
        return list
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }
}

/// GVariant's text format for a value, each variant's content annotated with its type.
enum GVariantText {
    static func of(_ value: GVariantWriter.Value) -> String {
        switch value {
        case .boolean(let flag): return flag ? "true" : "false"
        case .string(let text):
            var quoted = "'"
            for character in text.unicodeScalars {
                switch character {
                case "'": quoted += "\\'"
                case "\\": quoted += "\\\\"
                case "\n": quoted += "\\n"
                case "\t": quoted += "\\t"
                default: quoted.unicodeScalars.append(character)
                }
            }
            return quoted + "'"
        case .variant(let inner): return "<@\(inner.kind.typeString) \(of(inner))>"
        case .maybe(_, nil): return "nothing"
        case .maybe(_, let inner?): return "just \(of(inner))"
        case .array(_, let elements): return "[" + elements.map(of).joined(separator: ", ") + "]"
        case .dictionaryEntry(let key, let item): return "{\(of(key)), \(of(item))}"
        case .serialised(let kind, let bytes): return "@\(kind.typeString) serialised \(GLibVariants.hex(bytes))"
        }
    }
}

extension GLibVariants {
    /// GLib's normal form of `text` read as `type`.
    static func glibBytes(_ text: String, type: String) throws -> [UInt8] {
        let answers = try run(script: """
            for case in cases:
                answers.append({'glib': GLib.Variant.parse(GLib.VariantType(case['type']), case['text'], None, None).get_data_as_bytes().get_data().hex()})
            """, cases: [["type": type, "text": text]])
        let hex = try #require(answers.first?["glib"])
        return stride(from: 0, to: hex.count, by: 2).map { i in
            UInt8(hex[hex.index(hex.startIndex, offsetBy: i)..<hex.index(hex.startIndex, offsetBy: i + 2)], radix: 16)!
        }
    }
}

/// Another program's `a{sv}` (GSConnect's Run command list as GLib writes it), read entry by entry and
/// written back: its entries byte for byte, iCare's beside them, as GLib would write the whole.
@Suite struct GVariantArrayReaderTests {
    static let theirs = [
        "'their-lamp': <{'name': 'Lamp ☀ uit', 'command': 'notify-send \"hi\"'}>",
        "'x': <{'name': <'a nested variant'>, 'command': <'true'>}>",
        "'long': <{'name': '" + String(repeating: "n", count: 300) + "', 'command': 'true'}>",
    ]

    @Test(arguments: [0, 1, 2, 3])
    func anotherProgramsEntriesComeBackByteForByte(count: Int) throws {
        let text = "{" + Self.theirs.prefix(count).joined(separator: ", ") + "}"
        let glib = try GLibVariants.glibBytes(count == 0 ? "@a{sv} {}" : text, type: "a{sv}")
        let entries = try #require(GVariantArrayReader.stringKeyedEntries(glib, alignment: 8))
        #expect(entries.map(\.key) == Array(["their-lamp", "x", "long"].prefix(count)))
        let kind = GVariantWriter.Kind.dictionaryEntry(.string, .variant)
        let kept = entries.map { GVariantWriter.Value.serialised(kind, $0.bytes) }
        #expect(try GVariantWriter.serialise(.array(kind, kept)) == glib)
        // With iCare's entry after them: what GLib writes for the whole list.
        let ours = GVariantWriter.Value.dictionaryEntry(.string("icare-start"), .variant(.dictionary(
            [("name", .string("Start eye break")), ("command", .string("'/usr/bin/icarectl' start"))], of: .string)))
        let whole = "{" + (Self.theirs.prefix(count) + ["'icare-start': <{'name': 'Start eye break', 'command': \"'/usr/bin/icarectl' start\"}>"])
            .joined(separator: ", ") + "}"
        #expect(try GVariantWriter.serialise(.array(kind, kept + [ours])) == GLibVariants.glibBytes(whole, type: "a{sv}"))
    }

    @Test func notAnArrayIsNil() {
        #expect(GVariantArrayReader.stringKeyedEntries([0xFF], alignment: 8) == nil)
        #expect(GVariantArrayReader.stringKeyedEntries([1, 2, 3, 9], alignment: 8) == nil)
    }
}
