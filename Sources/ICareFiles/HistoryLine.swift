import ReminderCore

/// One line of a history file: `<at µs> <outcome> <seconds> <crc32>\n`, e.g.
/// `1718000000000000 completed 20 5c0ae2f1`.
///
/// The checksum is CRC-32 of everything before its separating space, in
/// eight lowercase hex digits. It is what tells a damaged line from a good
/// one: a line torn by a power cut and later closed by the next append's
/// newline could otherwise read as a plausible but wrong record.
enum HistoryLine {
    /// Why a line was not read.
    enum Damage: Error, Equatable {
        case malformed
        case checksumMismatch
    }

    /// Whether `outcome` can be stored: non-empty printable ASCII without spaces.
    static func canStore(_ outcome: Outcome) -> Bool {
        !outcome.rawValue.isEmpty && outcome.rawValue.utf8.allSatisfy { (0x21...0x7E).contains($0) }
    }

    /// The line for `record`, newline included; the outcome must pass `canStore`.
    static func encode(_ record: BreakRecord) -> [UInt8] {
        var bytes = Array("\(record.at) \(record.outcome.rawValue) \(record.seconds)".utf8)
        let crc = String(CRC32.checksum(bytes), radix: 16)
        bytes.append(UInt8(ascii: " "))
        bytes.append(contentsOf: String(repeating: "0", count: 8 - crc.count).utf8)
        bytes.append(contentsOf: crc.utf8)
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }

    /// The record in `line` (without its newline), or why it cannot be read.
    static func decode(_ line: ArraySlice<UInt8>) -> Result<BreakRecord, Damage> {
        let fields = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard fields.count == 4, fields[3].count == 8,
              let at = decimal(fields[0]), at <= UInt64(Int64.max),
              let seconds = decimal(fields[2]), seconds <= UInt64(UInt32.max),
              let crc = hex(fields[3]),
              !fields[1].isEmpty, fields[1].allSatisfy({ (0x21...0x7E).contains($0) }) else {
            return .failure(.malformed)
        }
        guard CRC32.checksum(line[line.startIndex..<fields[3].startIndex - 1]) == crc else {
            return .failure(.checksumMismatch)
        }
        let outcome = Outcome(rawValue: String(decoding: fields[1], as: UTF8.self))
        return .success(BreakRecord(at: Int64(at), outcome: outcome, seconds: UInt32(seconds)))
    }

    private static func decimal(_ bytes: ArraySlice<UInt8>) -> UInt64? {
        guard !bytes.isEmpty, bytes.count <= 19 else { return nil }
        var value: UInt64 = 0
        for byte in bytes {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + UInt64(byte - UInt8(ascii: "0"))
        }
        return value
    }

    private static func hex(_ bytes: ArraySlice<UInt8>) -> UInt32? {
        var value: UInt32 = 0
        for byte in bytes {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }
}
