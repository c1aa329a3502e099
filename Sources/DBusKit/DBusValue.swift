/// Any D-Bus value, with enough type information to write it even when a
/// container is empty. Reading a message yields these; writing takes them.
public enum DBusValue: Equatable, Sendable {
    case byte(UInt8)
    case bool(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(ObjectPath)
    case signature(Signature)
    /// A unix fd as received (a dup the receiver must close), or to send.
    case unixFD(Int32)
    /// `a<element>`; the element signature is kept for empty arrays.
    case array(element: Signature, [DBusValue])
    /// `ay` held as the bytes themselves (one byte each, not one value
    /// each): images and other blobs to send. Reading a message yields
    /// `.array(element: "y", …)`, which equals it.
    case bytes([UInt8])
    /// `a{<key><value>}`, in order.
    case dictionary(key: Signature, value: Signature, [(DBusValue, DBusValue)])
    /// `(…)`.
    case structure([DBusValue])
    /// `v`.
    indirect case variant(DBusValue)

    /// The value's complete type signature.
    public var signature: Signature {
        Signature(rawValue: signatureText)!
    }

    var signatureText: String {
        switch self {
        case .byte: return "y"
        case .bool: return "b"
        case .int16: return "n"
        case .uint16: return "q"
        case .int32: return "i"
        case .uint32: return "u"
        case .int64: return "x"
        case .uint64: return "t"
        case .double: return "d"
        case .string: return "s"
        case .objectPath: return "o"
        case .signature: return "g"
        case .unixFD: return "h"
        case .array(let e, _): return "a" + e.rawValue
        case .bytes: return "ay"
        case .dictionary(let k, let v, _): return "a{" + k.rawValue + v.rawValue + "}"
        case .structure(let members): return "(" + members.map(\.signatureText).joined() + ")"
        case .variant: return "v"
        }
    }

    public static func == (a: DBusValue, b: DBusValue) -> Bool {
        switch (a, b) {
        case (.byte(let x), .byte(let y)): return x == y
        case (.bool(let x), .bool(let y)): return x == y
        case (.int16(let x), .int16(let y)): return x == y
        case (.uint16(let x), .uint16(let y)): return x == y
        case (.int32(let x), .int32(let y)): return x == y
        case (.uint32(let x), .uint32(let y)): return x == y
        case (.int64(let x), .int64(let y)): return x == y
        case (.uint64(let x), .uint64(let y)): return x == y
        case (.double(let x), .double(let y)): return x == y
        case (.string(let x), .string(let y)): return x == y
        case (.objectPath(let x), .objectPath(let y)): return x == y
        case (.signature(let x), .signature(let y)): return x == y
        case (.unixFD(let x), .unixFD(let y)): return x == y
        case (.array(let s, let x), .array(let t, let y)): return s == t && x == y
        case (.bytes(let x), .bytes(let y)): return x == y
        case (.bytes(let x), .array("y", let y)), (.array("y", let y), .bytes(let x)):
            return x.count == y.count && zip(x, y).allSatisfy { .byte($0) == $1 }
        case (.dictionary(let k1, let v1, let x), .dictionary(let k2, let v2, let y)):
            return k1 == k2 && v1 == v2 && x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        case (.structure(let x), .structure(let y)): return x == y
        case (.variant(let x), .variant(let y)): return x == y
        default: return false
        }
    }
}

// MARK: convenient access

extension DBusValue {
    /// The value inside any number of variants.
    public var unwrapped: DBusValue {
        if case .variant(let inner) = self { return inner.unwrapped }
        return self
    }
    public var string: String? { if case .string(let s) = unwrapped { return s }; return nil }
    public var bool: Bool? { if case .bool(let b) = unwrapped { return b }; return nil }
    public var uint32: UInt32? { if case .uint32(let v) = unwrapped { return v }; return nil }
    public var uint64: UInt64? { if case .uint64(let v) = unwrapped { return v }; return nil }
    public var int64: Int64? { if case .int64(let v) = unwrapped { return v }; return nil }
    public var int32: Int32? { if case .int32(let v) = unwrapped { return v }; return nil }
    public var objectPath: ObjectPath? { if case .objectPath(let p) = unwrapped { return p }; return nil }
    /// The elements of an array.
    public var array: [DBusValue]? { if case .array(_, let a) = unwrapped { return a }; return nil }
    /// The members of a struct.
    public var structure: [DBusValue]? { if case .structure(let m) = unwrapped { return m }; return nil }
    /// An `a{s…}` dictionary keyed by string (later keys win).
    public var stringDictionary: [String: DBusValue]? {
        guard case .dictionary(_, _, let entries) = unwrapped else { return nil }
        var out: [String: DBusValue] = [:]
        for (k, v) in entries { if case .string(let key) = k { out[key] = v } }
        return out
    }
    /// The strings of an `as`.
    public var strings: [String]? { array?.compactMap(\.string) }

    /// `as`.
    public static func strings(_ list: [String]) -> DBusValue { .array(element: "s", list.map { .string($0) }) }
    /// `a{sv}` from pairs, in order.
    public static func vardict(_ pairs: [(String, DBusValue)]) -> DBusValue {
        .dictionary(key: "s", value: "v", pairs.map { (.string($0.0), .variant($0.1)) })
    }
}
