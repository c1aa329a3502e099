/// The config file split into classified lines, each knowing its place in
/// the bytes and whether it belongs to iCare's group.
///
/// Lines before any group header, and lines after an `[iCare]` header
/// (any case), are iCare's; lines under another group are not read.
struct ConfigDocument {
    /// One line of the file.
    struct Line {
        /// 1-based line number.
        let number: Int
        /// Where the line lies in the file, without its `\n`.
        let range: Range<Int>
        let parsed: ConfigLine
        /// Whether the line is under no header or under `[iCare]`.
        let isICare: Bool
    }

    /// The file's bytes as read.
    let bytes: [UInt8]
    let lines: [Line]

    /// Splits `bytes` at `\n`; a last line without `\n` is a line too.
    init(bytes: [UInt8]) {
        self.bytes = bytes
        var lines: [Line] = []
        var start = 0
        var isICare = true
        while start < bytes.count {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            let parsed = ConfigLine(bytes[start..<end])
            if case .group(let name) = parsed.kind { isICare = Self.isICareGroup(name) }
            lines.append(Line(number: lines.count + 1, range: start..<end, parsed: parsed, isICare: isICare))
            start = end + 1
        }
        self.lines = lines
    }

    /// Whether text appended at the end lands in iCare's group.
    var endsInICareGroup: Bool { lines.last?.isICare ?? true }

    /// Whether a group name is iCare's own (`[iCare]`, any case).
    static func isICareGroup(_ name: String) -> Bool { name.lowercased() == "icare" }
}
