/// A writer of GVariant's serialised normal form (little-endian), written
/// without GLib, for the few types iCare sends: booleans, strings, variants,
/// maybes, arrays and dictionary entries. Its first use is a dconf
/// changeset (`a{smv}`) for `ca.desrt.dconf.Writer.Change`, which sets
/// GSConnect's Run command list (`a{sv}` of `a{ss}`).
///
/// The layout, as GLib's gvariant-serialiser.c writes it:
/// - a boolean is one byte, 0 or 1; a string is its UTF-8 bytes and a zero;
/// - a variant is its value, a zero byte, then the value's type string;
/// - a maybe is empty for nothing; otherwise its value, followed by a zero
///   byte when the value's size is not fixed;
/// - an array of fixed-size elements is the elements one after the other;
///   otherwise each element starts at its alignment and the array ends with
///   a table of framing offsets, the end of each element;
/// - a dictionary entry is the key, then the value at its alignment, then the
///   end of the key as a framing offset when the key's size is not fixed;
///   when both sizes are fixed the entry is padded to its alignment instead.
///
/// Every framing offset in one container has the same width: the smallest of
/// 1, 2, 4 or 8 bytes for which the whole container (body and offsets) still
/// fits in that width. Padding is zero bytes, counted from the container's
/// start: every container starts at its own alignment, which is at least its
/// members', so that is the alignment from the start of the whole value too.
public enum GVariantWriter {
    /// A GVariant type, of the kinds this writer knows.
    public indirect enum Kind: Hashable, Sendable {
        case boolean
        case string
        case variant
        case maybe(Kind)
        case array(Kind)
        /// `{key value}`: the key must be a boolean or a string.
        case dictionaryEntry(Kind, Kind)

        /// The type string, such as `a{sv}`.
        public var typeString: String {
            switch self {
            case .boolean: return "b"
            case .string: return "s"
            case .variant: return "v"
            case .maybe(let element): return "m" + element.typeString
            case .array(let element): return "a" + element.typeString
            case .dictionaryEntry(let key, let value): return "{" + key.typeString + value.typeString + "}"
            }
        }

        /// The alignment in bytes: 8 for a variant, a container's its members' largest, else 1.
        var alignment: Int {
            switch self {
            case .boolean, .string: return 1
            case .variant: return 8
            case .maybe(let element), .array(let element): return element.alignment
            case .dictionaryEntry(let key, let value): return max(key.alignment, value.alignment)
            }
        }

        /// The size of every value of this type, or nil when values differ in size.
        var fixedSize: Int? {
            switch self {
            case .boolean: return 1
            case .string, .variant, .maybe, .array: return nil
            case .dictionaryEntry(let key, let value):
                guard let keySize = key.fixedSize, let valueSize = value.fixedSize else { return nil }
                return GVariantWriter.aligned(GVariantWriter.aligned(keySize, value.alignment) + valueSize, alignment)
            }
        }
    }

    /// A value to serialise. Empty arrays and nothing need their element's
    /// kind, so `maybe` and `array` carry it.
    public indirect enum Value: Equatable, Sendable {
        case boolean(Bool)
        case string(String)
        case variant(Value)
        /// A maybe of `Kind`: nil is nothing.
        case maybe(Kind, Value?)
        /// An array of elements of `Kind`.
        case array(Kind, [Value])
        case dictionaryEntry(Value, Value)
        /// A value of `Kind` already in normal form, put in as it is (another program's entry, kept byte for byte).
        case serialised(Kind, [UInt8])

        /// A dictionary with string keys (`a{s…}`), its entries in the given order.
        public static func dictionary(_ entries: [(key: String, value: Value)], of valueKind: Kind) -> Value {
            .array(.dictionaryEntry(.string, valueKind), entries.map { .dictionaryEntry(.string($0.key), $0.value) })
        }

        /// The value's type.
        public var kind: Kind {
            switch self {
            case .boolean: return .boolean
            case .string: return .string
            case .variant: return .variant
            case .maybe(let element, _): return .maybe(element)
            case .array(let element, _): return .array(element)
            case .dictionaryEntry(let key, let value): return .dictionaryEntry(key.kind, value.kind)
            case .serialised(let kind, _): return kind
            }
        }
    }

    /// Why a value could not be serialised.
    public enum Problem: Error, Equatable, Sendable, CustomStringConvertible {
        /// A string holds a zero byte, which GVariant strings cannot.
        case zeroInString(String)
        /// An array element or a maybe's value is not of the declared kind.
        case wrongKind(expected: String, found: String)
        /// A dictionary entry's key is not a boolean or a string.
        case keyNotBasic(String)
        /// A changeset path is not a dconf key (`/a/b`), nor a folder (`/a/`) to reset.
        case notADconfPath(String)

        /// One sentence.
        public var description: String {
            switch self {
            case .zeroInString(let text): return "The string \"\(text)\" holds a zero byte, which GVariant strings cannot."
            case .wrongKind(let expected, let found): return "A value of type \(found) stands where \(expected) is declared."
            case .keyNotBasic(let type): return "A dictionary key of type \(type) is not a basic type."
            case .notADconfPath(let path): return "\"\(path)\" is not a dconf key (a reset also takes a folder ending in /)."
            }
        }
    }

    /// The value's bytes in normal form, as GLib's `g_variant_get_data` gives them.
    public static func serialise(_ value: Value) throws(Problem) -> [UInt8] {
        switch value {
        case .serialised(_, let bytes):
            return bytes
        case .boolean(let flag):
            return [flag ? 1 : 0]
        case .string(let text):
            let bytes = Array(text.utf8)
            guard !bytes.contains(0) else { throw .zeroInString(text) }
            return bytes + [0]
        case .variant(let inner):
            return try serialise(inner) + [0] + Array(inner.kind.typeString.utf8)
        case .maybe(let element, let inner):
            guard let inner else { return [] }
            try check(inner, is: element)
            return try serialise(inner) + (element.fixedSize == nil ? [0] : [])
        case .array(let element, let elements):
            var body: [UInt8] = [], ends: [Int] = []
            for item in elements {
                try check(item, is: element)
                pad(&body, to: element.alignment)
                body += try serialise(item)
                ends.append(body.count)
            }
            return element.fixedSize == nil ? framed(body, ends) : body
        case .dictionaryEntry(let key, let item):
            guard key.kind == .boolean || key.kind == .string else { throw .keyNotBasic(key.kind.typeString) }
            var body = try serialise(key)
            let keyEnd = body.count
            pad(&body, to: item.kind.alignment)
            body += try serialise(item)
            if value.kind.fixedSize != nil {
                pad(&body, to: value.kind.alignment)
                return body
            }
            return framed(body, key.kind.fixedSize == nil ? [keyEnd] : [])
        }
    }

    /// A dconf changeset (`a{smv}`) for `ca.desrt.dconf.Writer.Change`, its
    /// argument `ay`: each key path with its new value, or nil to reset the
    /// key (or, for a path ending in `/`, every key under it). dconf-service
    /// silently drops an entry whose path is not valid, so that is checked
    /// here with its rules (common/dconf-paths.c): a path starts with `/`
    /// and has no `//`; a key does not end in `/`.
    public static func dconfChangeset(_ changes: [(path: String, value: Value?)]) throws(Problem) -> [UInt8] {
        var entries: [(key: String, value: Value)] = []
        for (path, value) in changes {
            let isPath = path.hasPrefix("/") && !containsDoubleSlash(path)
            guard isPath, value == nil || !path.hasSuffix("/") else { throw .notADconfPath(path) }
            entries.append((path, .maybe(.variant, value.map { .variant($0) })))
        }
        return try serialise(.dictionary(entries, of: .maybe(.variant)))
    }

    /// Whether `path` has two slashes in a row.
    private static func containsDoubleSlash(_ path: String) -> Bool {
        zip(path.utf8, path.utf8.dropFirst()).contains { $0 == UInt8(ascii: "/") && $1 == UInt8(ascii: "/") }
    }

    /// Throws unless `value` is of `kind`.
    private static func check(_ value: Value, is kind: Kind) throws(Problem) {
        let found = value.kind
        guard found == kind else { throw .wrongKind(expected: kind.typeString, found: found.typeString) }
    }

    /// `size` rounded up to a multiple of `alignment` (1, 2, 4 or 8).
    static func aligned(_ size: Int, _ alignment: Int) -> Int {
        (size + alignment - 1) & ~(alignment - 1)
    }

    /// Zero bytes up to the next multiple of `alignment`.
    private static func pad(_ bytes: inout [UInt8], to alignment: Int) {
        bytes += [UInt8](repeating: 0, count: aligned(bytes.count, alignment) - bytes.count)
    }

    /// `body` with the framing offsets `ends` after it, little-endian, each as
    /// wide as the smallest width that can address the whole result.
    private static func framed(_ body: [UInt8], _ ends: [Int]) -> [UInt8] {
        guard !ends.isEmpty else { return body }
        var width = 1
        while width < 8, body.count + width * ends.count > (1 << (8 * width)) - 1 { width *= 2 }
        var result = body
        result.reserveCapacity(body.count + width * ends.count)
        for end in ends {
            for byte in 0..<width { result.append(UInt8(truncatingIfNeeded: end >> (8 * byte))) }
        }
        return result
    }
}
