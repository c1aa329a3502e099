/// One line of the config file, classified, with the byte positions that
/// let a writer replace just its value.
///
/// A setting line is `Key = value`, with any spacing; the value ends at a
/// `#` or `;` that follows a space (an inline comment) and may be wrapped in
/// double quotes (`ActiveHours = ""`). Bytes are kept as they are, so lines
/// a writer does not touch stay byte-for-byte, whatever their encoding.
struct ConfigLine {
    /// What a line is.
    enum Kind: Equatable {
        /// Empty or only spaces.
        case blank
        /// Starts with `#` or `;`.
        case comment
        /// `[Name]`.
        case group(String)
        /// `Key = value`, with the key as written.
        case setting(key: String)
        /// None of the above.
        case garbage
    }

    /// The line without its `\n`.
    let bytes: ArraySlice<UInt8>
    let kind: Kind
    /// For a setting, where its value lies in `bytes` (quotes included).
    private(set) var valueRange: Range<Int>

    /// Classifies `bytes` (one line, without `\n`).
    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        valueRange = bytes.endIndex..<bytes.endIndex
        var start = bytes.startIndex
        // A UTF-8 byte-order mark some editors put at the start of a file.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start += 3 }
        let content = Self.trimmed(bytes[start...])
        guard let first = content.first else { kind = .blank; return }
        if first == UInt8(ascii: "#") || first == UInt8(ascii: ";") { kind = .comment; return }
        if first == UInt8(ascii: "["), content.last == UInt8(ascii: "]"), content.count >= 2 {
            let name = content.dropFirst().dropLast()
            kind = .group(String(decoding: Self.trimmed(name), as: UTF8.self))
            return
        }
        guard let equals = content.firstIndex(of: UInt8(ascii: "=")),
              !Self.trimmed(content[..<equals]).isEmpty else { kind = .garbage; return }
        kind = .setting(key: String(decoding: Self.trimmed(content[..<equals]), as: UTF8.self))
        valueRange = Self.valueRange(bytes, after: equals)
    }

    /// The value as a person meant it: spaces trimmed, outer quotes removed.
    var value: String {
        let raw = bytes[valueRange]
        let unquoted = isQuoted ? raw.dropFirst().dropLast() : raw
        return String(decoding: unquoted, as: UTF8.self)
    }

    /// Whether the value is written in double quotes.
    var isQuoted: Bool {
        let raw = bytes[valueRange]
        return raw.count >= 2 && raw.first == UInt8(ascii: "\"") && raw.last == UInt8(ascii: "\"")
    }

    /// For a commented-out setting as the template writes it (`#Interval = 20m`:
    /// `#` then the key at once), the setting without its `#`; else nil. A
    /// comment with a space after `#` is prose, never a setting.
    var commentedSetting: ConfigLine? {
        guard kind == .comment, let hash = bytes.firstIndex(where: { !Self.isSpace($0) }),
              bytes[hash] == UInt8(ascii: "#") else { return nil }
        let rest = bytes[(hash + 1)...]
        guard let first = rest.first, !Self.isSpace(first), !Self.isCommentStart(first) else { return nil }
        let line = ConfigLine(rest)
        guard case .setting = line.kind else { return nil }
        return line
    }

    /// The line with its value replaced by `text`, keeping the indentation,
    /// the key as written, the spacing, the quotes and any inline comment.
    func replacingValue(with text: String) -> [UInt8] {
        var prefix = Array(bytes[..<valueRange.lowerBound])
        let suffix = bytes[valueRange.upperBound...]
        var value = Array(text.utf8)
        if isQuoted { value = [UInt8(ascii: "\"")] + value + [UInt8(ascii: "\"")] }
        // `Key =` with no space after `=` but one before it: keep it symmetric.
        if !value.isEmpty, prefix.last == UInt8(ascii: "="), prefix.dropLast().last == UInt8(ascii: " ") {
            prefix.append(UInt8(ascii: " "))
        }
        // An inline comment glued to the old (empty) value would join the new one.
        if !value.isEmpty, let next = suffix.first, Self.isCommentStart(next) { value.append(UInt8(ascii: " ")) }
        return prefix + value + suffix
    }

    /// From after `=`: skip spaces; stop before an inline comment; drop trailing spaces.
    private static func valueRange(_ bytes: ArraySlice<UInt8>, after equals: Int) -> Range<Int> {
        var start = equals + 1
        while start < bytes.endIndex, isSpace(bytes[start]) { start += 1 }
        var end = start
        while end < bytes.endIndex {
            if isCommentStart(bytes[end]), end == start || isSpace(bytes[end - 1]) { break }
            end += 1
        }
        while end > start, isSpace(bytes[end - 1]) { end -= 1 }
        return start..<end
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
    }

    private static func isCommentStart(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "#") || byte == UInt8(ascii: ";")
    }

    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var slice = bytes
        while let first = slice.first, isSpace(first) { slice = slice.dropFirst() }
        while let last = slice.last, isSpace(last) { slice = slice.dropLast() }
        return slice
    }
}
