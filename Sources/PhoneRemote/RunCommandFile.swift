/// One phone's Run command list in KDE Connect's settings, the file
/// `$XDG_CONFIG_HOME/kdeconnect/<phone id>/kdeconnect_runcommand/config`:
/// QSettings INI, the list being the key `commands` of the group `[General]`,
/// a byte array holding a JSON object `{"<key>": {"command": …, "name": …}}`
/// (docs/phones.md). iCare changes only its own members of that object and
/// only that line of the file; every other byte stays as it was.
enum RunCommandFile {
    enum Problem: Error, Equatable, CustomStringConvertible {
        /// The `commands` line is not one byte array (line number).
        case notByteArray(Int)
        /// The byte array is not a JSON object (line number).
        case notJSONObject(Int)

        var description: String {
            switch self {
            case .notByteArray(let line): "line \(line): 'commands' is not the byte array KDE Connect writes"
            case .notJSONObject(let line): "line \(line): 'commands' does not hold a JSON object"
            }
        }
    }

    /// The file's new text with iCare's members (`ourKeys`) replaced by `ours` (none: removed), or nil
    /// when it would not change. `old` nil: there is no file yet.
    static func merged(_ old: [UInt8]?, ours: [JSONObjectText.Member], ourKeys: Set<String>) throws(Problem) -> [UInt8]? {
        let lines = splitLines(old ?? [])
        var section = ""
        var generalHeader: Int?
        for (index, line) in lines.enumerated() {
            let content = trimmed(line)
            if content.first == UInt8(ascii: "["), content.last == UInt8(ascii: "]") {
                section = String(decoding: content.dropFirst().dropLast(), as: UTF8.self)
                if section == "General", generalHeader == nil { generalHeader = index }
                continue
            }
            guard section == "General", let value = commandsValue(content) else { continue }
            guard let bytes = QSettingsText.decodeByteArray(value) else { throw .notByteArray(index + 1) }
            guard let list = JSONObjectText(bytes) else { throw .notJSONObject(index + 1) }
            let current = list.members.filter { ourKeys.contains($0.key) }
            // Ours already there, wherever KDE Connect's own writes (keys sorted) put them: nothing to do.
            guard current.count != ours.count || Set(current) != Set(ours) else { return nil }
            let updated = JSONObjectText(members: list.members.filter { !ourKeys.contains($0.key) } + ours)
            var out = lines
            out[index] = commandsLine(updated) + lineEnding(line)
            return out.flatMap { $0 }
        }
        guard !ours.isEmpty else { return nil }
        let line = commandsLine(JSONObjectText(members: ours)) + [0x0A]
        if let header = generalHeader {
            var out = lines
            if lines[header].last != 0x0A { out[header] += [0x0A] }
            out.insert(line, at: header + 1)
            return out.flatMap { $0 }
        }
        // No [General] group: it comes first, as QSettings writes it, with a blank line before the rest.
        let rest = old ?? []
        return Array("[General]\n".utf8) + line + (rest.isEmpty ? [] : [0x0A] + rest)
    }

    /// The members of the list in `text` (tests, and the check after a write).
    static func members(_ text: [UInt8]) -> [JSONObjectText.Member]? {
        var section = ""
        for line in splitLines(text) {
            let content = trimmed(line)
            if content.first == UInt8(ascii: "["), content.last == UInt8(ascii: "]") {
                section = String(decoding: content.dropFirst().dropLast(), as: UTF8.self)
            } else if section == "General", let value = commandsValue(content) {
                return QSettingsText.decodeByteArray(value).flatMap(JSONObjectText.init)?.members
            }
        }
        return []
    }

    private static func commandsLine(_ list: JSONObjectText) -> [UInt8] {
        Array("commands=".utf8) + QSettingsText.encodeByteArray(list.bytes)
    }

    /// The value after `commands=` (spaces around the `=` allowed, as Qt reads it).
    private static func commandsValue(_ content: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        let key = Array("commands".utf8)
        guard content.starts(with: key) else { return nil }
        var rest = content.dropFirst(key.count)
        while rest.first == 0x20 || rest.first == 0x09 { rest = rest.dropFirst() }
        guard rest.first == UInt8(ascii: "=") else { return nil }
        rest = rest.dropFirst()
        while rest.first == 0x20 || rest.first == 0x09 { rest = rest.dropFirst() }
        return rest
    }

    /// Lines with their endings kept, so that joining them gives the text back.
    private static func splitLines(_ text: [UInt8]) -> [[UInt8]] {
        var lines: [[UInt8]] = []
        var start = 0
        for (i, byte) in text.enumerated() where byte == 0x0A {
            lines.append(Array(text[start...i]))
            start = i + 1
        }
        if start < text.count { lines.append(Array(text[start...])) }
        return lines
    }

    private static func lineEnding(_ line: [UInt8]) -> [UInt8] {
        if line.suffix(2) == [0x0D, 0x0A] { return [0x0D, 0x0A] }
        return line.last == 0x0A ? [0x0A] : []
    }

    private static func trimmed(_ line: [UInt8]) -> ArraySlice<UInt8> {
        var s = line[...]
        while let last = s.last, [0x0A, 0x0D, 0x20, 0x09].contains(last) { s = s.dropLast() }
        while let first = s.first, [0x20, 0x09].contains(first) { s = s.dropFirst() }
        return s
    }
}
