/// A value stored in a GVDB file: a serialised GVariant `v`, that is the
/// value's bytes, a zero byte, and the value's type string.
public struct GVariantValue: Equatable, Sendable {
    /// The GVariant type string, e.g. `b`, `s`, `i`, `as`.
    public let type: String
    /// The serialised value (little-endian), without the type.
    public let data: [UInt8]

    /// Splits a serialised variant; nil when it has no type string.
    init?(variant bytes: ArraySlice<UInt8>) {
        guard let zero = bytes.lastIndex(of: 0) else { return nil }
        let type = bytes[(zero + 1)...]
        guard !type.isEmpty, type.allSatisfy({ (0x21...0x7E).contains($0) }) else { return nil }
        self.type = String(decoding: type, as: UTF8.self)
        data = Array(bytes[..<zero])
    }

    /// The boolean, when the type is `b` and the byte is 0 or 1.
    public var boolean: Bool? {
        guard type == "b", data.count == 1, data[0] <= 1 else { return nil }
        return data[0] == 1
    }

    /// The string, when the type is `s` and the data ends with its zero byte.
    public var string: String? {
        guard type == "s", data.last == 0 else { return nil }
        return String(decoding: data.dropLast(), as: UTF8.self)
    }

    /// The strings, when the type is `as`: the strings one after the other,
    /// each with its zero byte, then a table with the end of each, every
    /// entry 1, 2 or 4 bytes wide as the whole array's size needs
    /// (GVariant's serialisation). Nil for anything malformed.
    public var strings: [String]? {
        guard type == "as" else { return nil }
        let size = data.count
        if size == 0 { return [] }
        let width = size <= 0xFF ? 1 : size <= 0xFFFF ? 2 : 4
        guard size >= width else { return nil }
        func offset(at i: Int) -> Int {
            (0..<width).reduce(0) { $0 | Int(data[i + $1]) << (8 * $1) }
        }
        let table = offset(at: size - width)
        guard table <= size - width, (size - table) % width == 0 else { return nil }
        var result: [String] = []
        var start = 0
        for i in 0..<((size - table) / width) {
            let end = offset(at: table + i * width)
            guard end >= start + 1, end <= table, data[end - 1] == 0 else { return nil }
            result.append(String(decoding: data[start..<(end - 1)], as: UTF8.self))
            start = end
        }
        return result
    }
}
