import FileSupport
import Testing
@testable import FileKit

@Suite struct GVDBFileTests {
    static let gnome = "/org/gnome/desktop/notifications/show-banners"
    static let cinnamon = "/org/cinnamon/desktop/notifications/display-notifications"
    static let mate = "/org/mate/notification-daemon/do-not-disturb"

    /// GNOME in DND, MATE in DND, Cinnamon unset, with neighbours of other types.
    static let desktops = [
        "00-gnome": """
            [org/gnome/desktop/notifications]
            show-banners=false
            show-in-lock-screen=true
            application-children=['org-gnome-console', 'firefox-esr']

            [org/gnome/desktop/notifications/application/firefox-esr]
            enable=false
            application-id='firefox-esr.desktop'
            """,
        "10-mate": """
            [org/mate/notification-daemon]
            do-not-disturb=true
            popup-location='top_right'
            timeout=uint32 7
            """,
        "20-cinnamon": """
            [org/cinnamon/desktop/notifications]
            remove-old=true
            notification-duration=4
            """,
    ]

    @Test func readsTheThreeDesktopKeys() throws {
        let db = try GVDBFile(bytes: DconfCompile.database(Self.desktops))
        #expect(db.boolean(at: Self.gnome) == false)
        #expect(db.boolean(at: Self.mate) == true)
        #expect(db.boolean(at: Self.cinnamon) == nil, "unset means the schema default")
        #expect(db.boolean(at: "/org/cinnamon/desktop/notifications/remove-old") == true)
        #expect(db.boolean(at: "/org/gnome/desktop/notifications/application/firefox-esr/enable") == false)
    }

    @Test func trueFalseAndAbsent() throws {
        for (text, expected) in [("true", true), ("false", false)] {
            let db = try GVDBFile(bytes: DconfCompile.database([
                "k": "[org/gnome/desktop/notifications]\nshow-banners=\(text)\n",
            ]))
            #expect(db.boolean(at: Self.gnome) == expected)
            #expect(db.value(at: Self.gnome) == GVariantValue(variant: [expected ? 1 : 0, 0, UInt8(ascii: "b")]))
        }
        let empty = try GVDBFile(bytes: DconfCompile.database([:]))
        #expect(empty.boolean(at: Self.gnome) == nil)
        #expect(empty.boolean(at: "/") == nil)
        #expect(empty.boolean(at: "") == nil)
    }

    /// String arrays (`as`) as the real `dconf compile` writes them: GNOME's
    /// break-reminders key, an empty list, and one long enough for 2-byte offsets.
    @Test func stringArrays() throws {
        let long = (0..<40).map { "break-\($0)" }
        let db = try GVDBFile(bytes: DconfCompile.database([
            "k": """
                [org/gnome/desktop/break-reminders]
                selected-breaks=['movement', 'eyesight']

                [org/example]
                none=@as []
                one=['eyesight']
                long=[\(long.map { "'\($0)'" }.joined(separator: ", "))]
                text='eyesight'
                """,
        ]))
        #expect(db.value(at: "/org/gnome/desktop/break-reminders/selected-breaks")?.strings == ["movement", "eyesight"])
        #expect(db.value(at: "/org/example/none")?.strings == [])
        #expect(db.value(at: "/org/example/one")?.strings == ["eyesight"])
        #expect(db.value(at: "/org/example/long")?.strings == long)
        #expect(db.value(at: "/org/example/text")?.strings == nil)
        #expect(db.value(at: "/org/gnome/desktop/notifications/application-children")?.strings == nil)
        // Damaged tables are refused, never read out of bounds.
        for bytes: [UInt8] in [[0x61, 0x00, 0x05], [0x61, 0x00, 0x01, 0x00], [0x61, 0x62, 0x02], [0x07]] {
            #expect(GVariantValue(variant: ArraySlice(bytes + [0, UInt8(ascii: "a"), UInt8(ascii: "s")]))?.strings == nil, "\(bytes)")
        }
    }

    @Test func otherTypesAndNearMissesAreNotBooleans() throws {
        let db = try GVDBFile(bytes: DconfCompile.database(Self.desktops))
        #expect(db.value(at: "/org/mate/notification-daemon/popup-location")?.string == "top_right")
        #expect(db.boolean(at: "/org/mate/notification-daemon/popup-location") == nil)
        #expect(db.value(at: "/org/mate/notification-daemon/timeout") == GVariantValue(variant: [7, 0, 0, 0, 0, UInt8(ascii: "u")]))
        #expect(db.value(at: "/org/gnome/desktop/notifications/application-children")?.type == "as")
        #expect(db.value(at: "/org/gnome/desktop/notifications/") == nil, "a directory is not a value")
        #expect(db.boolean(at: "/org/gnome/desktop/notifications/show-banner") == nil)
        #expect(db.boolean(at: "/org/gnome/desktop/notifications/show-bannersx") == nil)
        #expect(db.boolean(at: "org/gnome/desktop/notifications/show-banners") == nil)
        #expect(db.boolean(at: "/org/gnome/desktop/Notifications/show-banners") == nil)
        #expect(db.boolean(at: "/org/mate/notification-daemon/show-banners") == nil)
    }

    /// Several hundred keys in a deep tree, booleans among strings, numbers and arrays.
    static func bigTree() -> (files: [String: String], booleans: [String: Bool]) {
        var files = Self.desktops
        var booleans: [String: Bool] = [Self.gnome: false, Self.mate: true]
        for app in 0..<40 {
            var text = ""
            for section in 0..<3 {
                let group = "org/example/vendor\(app % 7)/app\(app)/section\(section)/deeper"
                text += "[\(group)]\n"
                for key in 0..<4 {
                    let flag = (app + section + key) % 3 == 0
                    text += "flag\(key)=\(flag)\nname\(key)='app \(app) ünïcode \(key)'\ncount\(key)=int64 \(app * 1000 + key)\n"
                    booleans["/\(group)/flag\(key)"] = flag
                }
                text += "list=[\(app), \(section)]\n\n"
            }
            files["app\(app)"] = text
        }
        return (files, booleans)
    }

    @Test func findsEveryKeyDeepInABigTree() throws {
        let (files, booleans) = Self.bigTree()
        let bytes = try DconfCompile.database(files)
        let db = try GVDBFile(bytes: bytes)
        #expect(booleans.count > 400)
        for (key, value) in booleans { #expect(db.boolean(at: key) == value, "\(key)") }
        #expect(db.value(at: "/org/example/vendor3/app10/section2/deeper/name1")?.string == "app 10 ünïcode 1")
        #expect(db.boolean(at: Self.cinnamon) == nil)
        #expect(db.boolean(at: "/org/example/vendor3/app10/section2/deeper/flag9") == nil)
    }

    @Test func readsAFileByPath() throws {
        let temp = try TemporaryDirectory()
        let path = temp.join("dconf/user")
        try writeFixture(DconfCompile.database(Self.desktops), to: path)
        #expect(try GVDBFile(path: path).boolean(at: Self.gnome) == false)
        #expect(throws: GVDBError.file(FileError(function: "open", path: temp.join("absent"), code: 2))) {
            try GVDBFile(path: temp.join("absent"))
        }
    }

    @Test func rejectsWhatIsNotGVDB() throws {
        #expect(throws: GVDBError.self) { try GVDBFile(bytes: []) }
        #expect(throws: GVDBError.notGVDB) { try GVDBFile(bytes: Array("[org/gnome]\nshow-banners=false\n...".utf8)) }
        var bytes = try DconfCompile.database(Self.desktops)
        bytes[8] = 1
        #expect(throws: GVDBError.unsupportedVersion(1)) { try GVDBFile(bytes: bytes) }
        bytes[8] = 0
        bytes.swapAt(0, 3)
        bytes.swapAt(1, 2)
        bytes.swapAt(4, 7)
        bytes.swapAt(5, 6)
        #expect(throws: GVDBError.otherByteOrder) { try GVDBFile(bytes: bytes) }
    }

    /// Looks every interesting key up; the point is that nothing crashes or hangs.
    func probe(_ bytes: [UInt8], _ keys: [String]) -> Int {
        guard let db = try? GVDBFile(bytes: bytes) else { return 0 }
        return keys.reduce(0) { count, key in count + (db.value(at: key) == nil ? 0 : 1) }
    }

    @Test func truncatedFilesFailOrReadNeverCrash() throws {
        let bytes = try DconfCompile.database(Self.desktops)
        let keys = [Self.gnome, Self.mate, Self.cinnamon, "/org/mate/notification-daemon/popup-location"]
        var errors = 0
        for length in 0..<bytes.count {
            if (try? GVDBFile(bytes: Array(bytes.prefix(length)))) == nil { errors += 1 }
            _ = probe(Array(bytes.prefix(length)), keys)
        }
        #expect(errors > 0)
        #expect(probe(bytes, keys) == 3)
    }

    @Test func corruptedBytesFailOrReadNeverCrash() throws {
        let bytes = try DconfCompile.database(Self.desktops)
        let keys = [Self.gnome, Self.mate, Self.cinnamon, "/org/gnome/desktop/notifications/application/firefox-esr/enable"]
        for index in bytes.indices {
            for replacement: UInt8 in [0x00, 0xFF, bytes[index] ^ 0x80, bytes[index] &+ 1] {
                var corrupt = bytes
                corrupt[index] = replacement
                _ = probe(corrupt, keys)
            }
        }
        // Whole words set to extreme values: offsets near 2^32, cycles through parents.
        for offset in stride(from: 0, to: bytes.count - 3, by: 4) {
            for word: UInt32 in [0, 0xFFFF_FFFF, 0x7FFF_FFFF, 1, UInt32(bytes.count)] {
                var corrupt = bytes
                for i in 0..<4 { corrupt[offset + i] = UInt8(truncatingIfNeeded: word >> (8 * UInt32(i))) }
                _ = probe(corrupt, keys)
            }
        }
    }

    @Test func corruptionSampledInABigTree() throws {
        let (files, booleans) = Self.bigTree()
        let bytes = try DconfCompile.database(files)
        let keys = Array(booleans.keys.sorted().prefix(20)) + [Self.gnome]
        var generator = SplitMix(seed: 20_20_20)
        for _ in 0..<3000 {
            var corrupt = bytes
            for _ in 0..<4 {
                corrupt[Int(generator.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: generator.next())
            }
            _ = probe(corrupt, keys)
        }
    }

    @Test func aParentCycleEndsTheLookup() throws {
        var bytes = try DconfCompile.database(Self.desktops)
        // Find the show-banners item by its hash, then make it its own parent with an empty key.
        let hash = GVDBFile.hash(Array(Self.gnome.utf8))
        let pattern = (0..<4).map { UInt8(truncatingIfNeeded: hash >> (8 * UInt32($0))) }
        let start = try #require((0..<(bytes.count - 24)).first { Array(bytes[$0..<$0 + 4]) == pattern })
        #expect(try GVDBFile(bytes: bytes).boolean(at: Self.gnome) == false)
        let rootStart = Int(bytes[16]) | Int(bytes[17]) << 8
        let buckets = Int(bytes[rootStart + 4]) | Int(bytes[rootStart + 5]) << 8
        let bloom = Int(bytes[rootStart]) | Int(bytes[rootStart + 1]) << 8
        let index = (start - (rootStart + 8 + 4 * bloom + 4 * buckets)) / 24
        for i in 0..<4 { bytes[start + 4 + i] = UInt8(truncatingIfNeeded: UInt32(index) >> (8 * UInt32(i))) }
        bytes[start + 12] = 0
        bytes[start + 13] = 0
        #expect(try GVDBFile(bytes: bytes).boolean(at: Self.gnome) == nil)
    }

    @Test func hashIsDJB2OverSignedChars() {
        #expect(GVDBFile.hash([]) == 5381)
        #expect(GVDBFile.hash(Array("/".utf8)) == 5381 &* 33 &+ 47)
        // A byte above 0x7F counts as negative, as a signed char.
        #expect(GVDBFile.hash([0xC3]) == 5381 &* 33 &- 61)
    }
}

/// A small deterministic generator, so a failure can be replayed.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
