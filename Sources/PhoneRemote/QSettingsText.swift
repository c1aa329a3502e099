/// The one kind of value iCare reads and writes in a QSettings INI file: a
/// byte array, as Qt writes it (`qsettings.cpp`, `iniEscapedString` and
/// `iniUnescapedStringList`, read for Qt 5.15 and 6.8): `@ByteArray(…)`, each
/// byte as a Latin-1 character; `"` and `\` escaped with a backslash; the
/// control characters by name (`\n`) or as `\xNN`, as are bytes 0x7F and up
/// (then a hex digit right after one is escaped too, since Qt's reader takes
/// every hex digit that follows `\x`); the whole in quotes when it holds
/// `;`, `,` or `=`, or begins or ends with a space. See docs/phones.md.
enum QSettingsText {
    private static let named: [UInt8: UInt8] = [
        0x07: UInt8(ascii: "a"), 0x08: UInt8(ascii: "b"), 0x0C: UInt8(ascii: "f"), 0x0A: UInt8(ascii: "n"),
        0x0D: UInt8(ascii: "r"), 0x09: UInt8(ascii: "t"), 0x0B: UInt8(ascii: "v"),
    ]

    /// The value text (after `key=`) for `bytes` as a byte array.
    static func encodeByteArray(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = Array("@ByteArray(".utf8)
        var escapeNextIfHexDigit = false
        for byte in bytes {
            if escapeNextIfHexDigit, isHexDigit(byte) {
                out += hexEscape(byte)
                continue
            }
            escapeNextIfHexDigit = false
            switch byte {
            case 0:
                out += Array("\\0".utf8)
                escapeNextIfHexDigit = true
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                out += [UInt8(ascii: "\\"), byte]
            default:
                if let name = named[byte] {
                    out += [UInt8(ascii: "\\"), name]
                } else if byte <= 0x1F || byte >= 0x7F {
                    out += hexEscape(byte)
                    escapeNextIfHexDigit = true
                } else {
                    out.append(byte)
                }
            }
        }
        out.append(UInt8(ascii: ")"))
        let special: Set<UInt8> = [UInt8(ascii: ";"), UInt8(ascii: ","), UInt8(ascii: "=")]
        if out.contains(where: special.contains) || out.first == 0x20 || out.last == 0x20 {
            out = [UInt8(ascii: "\"")] + out + [UInt8(ascii: "\"")]
        }
        return out
    }

    /// The bytes of a value text that holds one byte array; nil when it is
    /// something else (a plain string, a list, a character beyond Latin-1).
    static func decodeByteArray(_ text: ArraySlice<UInt8>) -> [UInt8]? {
        guard let units = unescape(text) else { return nil }
        let prefix = Array("@ByteArray(".utf16)
        guard units.count >= prefix.count + 1, Array(units.prefix(prefix.count)) == prefix,
              units.last == UInt16(UInt8(ascii: ")")) else { return nil }
        var bytes: [UInt8] = []
        for unit in units.dropFirst(prefix.count).dropLast() {
            guard unit <= 0xFF else { return nil }
            bytes.append(UInt8(unit))
        }
        return bytes
    }

    /// Qt's reading of a value: quotes, escapes, UTF-8 outside them; nil for
    /// a list (a `,` outside quotes) or a text that is not UTF-8.
    private static func unescape(_ text: ArraySlice<UInt8>) -> [UInt16]? {
        var units: [UInt16] = []
        var quoted = false
        var plain: [UInt8] = []
        var i = text.startIndex
        func flush() -> Bool {
            defer { plain.removeAll() }
            guard !plain.isEmpty else { return true }
            guard let s = String(validating: plain, as: UTF8.self) else { return false }
            units += Array(s.utf16)
            return true
        }
        while i < text.endIndex {
            let byte = text[i]
            switch byte {
            case UInt8(ascii: "\\"):
                guard flush() else { return nil }
                i += 1
                guard i < text.endIndex else { return units }
                let code = text[i]
                i += 1
                if let value = named.first(where: { $0.value == code })?.key {
                    units.append(UInt16(value))
                } else if [UInt8(ascii: "\""), UInt8(ascii: "?"), UInt8(ascii: "'"), UInt8(ascii: "\\")].contains(code) {
                    units.append(UInt16(code))
                } else if code == UInt8(ascii: "x") {
                    var value: UInt16 = 0
                    while i < text.endIndex, let digit = hexValue(text[i]) { value = value &<< 4 &+ UInt16(digit); i += 1 }
                    units.append(value)
                } else if let first = octalValue(code) {
                    var value = UInt16(first)
                    while i < text.endIndex, let digit = octalValue(text[i]) { value = value &<< 3 &+ UInt16(digit); i += 1 }
                    units.append(value)
                }
                continue
            case UInt8(ascii: "\""):
                guard flush() else { return nil }
                quoted.toggle()
            case UInt8(ascii: ",") where !quoted:
                return nil
            default:
                plain.append(byte)
            }
            i += 1
        }
        guard flush() else { return nil }
        return units
    }

    private static func hexEscape(_ byte: UInt8) -> [UInt8] { Array("\\x".utf8) + Array(String(byte, radix: 16).utf8) }
    private static func isHexDigit(_ byte: UInt8) -> Bool { hexValue(byte) != nil }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static func octalValue(_ byte: UInt8) -> UInt8? {
        (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(byte) ? byte - UInt8(ascii: "0") : nil
    }
}
