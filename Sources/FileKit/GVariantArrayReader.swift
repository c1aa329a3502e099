/// Reads the one shape iCare needs from another program's GVariant: a
/// dictionary with string keys and values of varying size (`a{sv}`), entry
/// by entry, each entry's bytes kept as they are so that it can be written
/// back unchanged (`GVariantWriter.Value.serialised`).
///
/// The layout (GLib's gvariant-serialiser.c): the entries one after the
/// other, each starting at the element's alignment, then a table with the
/// end of each entry; every offset in the table as wide as the whole array
/// needs (1, 2, 4 or 8 bytes). An entry is its key (a string and its zero),
/// the value at its alignment, then the key's end as one offset as wide as
/// the entry needs.
public enum GVariantArrayReader {
    /// The entries of a `a{s…}` array whose elements are not of fixed size, each with its key; nil when
    /// the bytes are not such an array.
    public static func stringKeyedEntries(_ data: [UInt8], alignment: Int) -> [(key: String, bytes: [UInt8])]? {
        guard let elements = elements(data, alignment: alignment) else { return nil }
        var entries: [(key: String, bytes: [UInt8])] = []
        for element in elements {
            let width = offsetWidth(element.count)
            guard element.count >= width + 1 else { return nil }
            let keyEnd = offset(element, at: element.count - width)
            guard keyEnd >= 1, keyEnd <= element.count - width, element[keyEnd - 1] == 0,
                  !element[..<(keyEnd - 1)].contains(0),
                  let key = String(validating: element[..<(keyEnd - 1)], as: UTF8.self) else { return nil }
            entries.append((key, element))
        }
        return entries
    }

    /// The elements of an array of values that are not of fixed size.
    static func elements(_ data: [UInt8], alignment: Int) -> [[UInt8]]? {
        if data.isEmpty { return [] }
        let width = offsetWidth(data.count)
        guard data.count >= width else { return nil }
        let table = offset(data[...], at: data.count - width)
        guard table <= data.count - width, (data.count - table) % width == 0 else { return nil }
        var elements: [[UInt8]] = []
        var start = 0
        for i in 0..<((data.count - table) / width) {
            let end = offset(data[...], at: table + i * width)
            start = (start + alignment - 1) & ~(alignment - 1)
            guard start <= end, end <= table else { return nil }
            elements.append(Array(data[start..<end]))
            start = end
        }
        return elements
    }

    /// GLib's width of the framing offsets in a container of `size` bytes.
    static func offsetWidth(_ size: Int) -> Int {
        size <= 0xFF ? 1 : size <= 0xFFFF ? 2 : size <= 0xFFFF_FFFF ? 4 : 8
    }

    private static func offset<C: RandomAccessCollection<UInt8>>(_ bytes: C, at position: Int) -> Int where C.Index == Int {
        let width = offsetWidth(bytes.count)
        let base = bytes.startIndex + position
        return (0..<width).reduce(0) { $0 | Int(bytes[base + $1]) << (8 * $1) }
    }
}
