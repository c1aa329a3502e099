import ReminderCore

/// A JSON object as text, member by member: each member's key and its exact
/// bytes, so that iCare can add and remove its own members and leave every
/// other one byte for byte as the person's program wrote it. Only the
/// object's own level is parsed; values are skipped over, checked only for
/// being well formed enough to find their end.
struct JSONObjectText: Equatable {
    struct Member: Hashable {
        let key: String
        /// From the key's opening quote to the value's last byte.
        let text: [UInt8]
    }

    var members: [Member]

    /// The members of `bytes`; nil when it is not one JSON object.
    init?(_ bytes: [UInt8]) {
        var reader = Reader(bytes: bytes)
        guard let members = reader.object(), reader.atEnd() else { return nil }
        self.members = members
    }

    init(members: [Member]) { self.members = members }

    /// The object as compact text: `{` members joined by `,` `}`.
    var bytes: [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "{")]
        for (i, member) in members.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            out += member.text
        }
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// A member whose value is an object of strings, written compactly with its keys sorted (as Qt's
    /// QJsonDocument writes one).
    static func member(_ key: String, strings: [(String, String)]) -> Member {
        let fields = strings.sorted { $0.0 < $1.0 }.map { quoted($0.0) + ":" + quoted($0.1) }
        return Member(key: key, text: Array((quoted(key) + ":{" + fields.joined(separator: ",") + "}").utf8))
    }

    /// A JSON string literal.
    static func quoted(_ s: String) -> String { JSONString.quoted(s) }

    private struct Reader {
        let bytes: [UInt8]
        var i = 0
        /// Nesting, bounded: a hostile file cannot recurse without end.
        var depth = 0

        init(bytes: [UInt8]) { self.bytes = bytes }

        mutating func skipSpace() {
            while i < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) { i += 1 }
        }

        mutating func atEnd() -> Bool { skipSpace(); return i == bytes.count }

        mutating func object() -> [Member]? {
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "{") else { return nil }
            i += 1
            var members: [Member] = []
            skipSpace()
            if i < bytes.count, bytes[i] == UInt8(ascii: "}") { i += 1; return members }
            while true {
                skipSpace()
                let start = i
                guard let key = string() else { return nil }
                skipSpace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { return nil }
                i += 1
                skipSpace()
                guard skipValue() else { return nil }
                members.append(Member(key: key, text: Array(bytes[start..<i])))
                skipSpace()
                guard i < bytes.count else { return nil }
                if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                guard bytes[i] == UInt8(ascii: "}") else { return nil }
                i += 1
                return members
            }
        }

        /// A string literal, decoded (enough to compare keys: `\uXXXX` pairs included).
        mutating func string() -> String? {
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { return nil }
            i += 1
            var raw: [UInt8] = []
            var units: [UInt16] = []
            func flush() -> Bool {
                guard !raw.isEmpty else { return true }
                guard let s = String(validating: raw, as: UTF8.self) else { return false }
                units += Array(s.utf16)
                raw.removeAll()
                return true
            }
            while i < bytes.count {
                let byte = bytes[i]
                i += 1
                switch byte {
                case UInt8(ascii: "\""):
                    guard flush() else { return nil }
                    return String(decoding: units, as: UTF16.self)
                case UInt8(ascii: "\\"):
                    guard flush(), i < bytes.count else { return nil }
                    let code = bytes[i]
                    i += 1
                    let simple: [UInt8: UInt16] = [0x22: 0x22, 0x5C: 0x5C, 0x2F: 0x2F, 0x62: 0x08, 0x66: 0x0C,
                                                   0x6E: 0x0A, 0x72: 0x0D, 0x74: 0x09]
                    if let unit = simple[code] {
                        units.append(unit)
                    } else if code == UInt8(ascii: "u"), i + 4 <= bytes.count,
                              let unit = UInt16(String(decoding: bytes[i..<i + 4], as: UTF8.self), radix: 16) {
                        units.append(unit)
                        i += 4
                    } else {
                        return nil
                    }
                default:
                    guard byte >= 0x20 else { return nil }
                    raw.append(byte)
                }
            }
            return nil
        }

        mutating func skipValue() -> Bool {
            guard i < bytes.count else { return false }
            switch bytes[i] {
            case UInt8(ascii: "\""):
                return string() != nil
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                guard depth < 64 else { return false }
                depth += 1
                defer { depth -= 1 }
                return bytes[i] == UInt8(ascii: "{") ? object() != nil : array()
            default:
                let start = i
                while i < bytes.count, !([UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x09, 0x0A, 0x0D]
                    .contains(bytes[i])) { i += 1 }
                let word = String(decoding: bytes[start..<i], as: UTF8.self)
                return ["true", "false", "null"].contains(word) || Double(word) != nil
            }
        }

        mutating func array() -> Bool {
            i += 1
            skipSpace()
            if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1; return true }
            while true {
                skipSpace()
                guard skipValue() else { return false }
                skipSpace()
                guard i < bytes.count else { return false }
                if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                guard bytes[i] == UInt8(ascii: "]") else { return false }
                i += 1
                return true
            }
        }
    }
}
