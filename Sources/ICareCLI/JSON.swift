import ReminderCore

/// A JSON value with keys kept in the order written, so the output is
/// stable byte for byte (the shapes are documented in `JSONShapes.swift`).
public indirect enum JSON: Equatable, Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case string(String)
    case array([JSON])
    case object([(String, JSON)])

    /// Compact, one line.
    public var text: String {
        var out = ""
        write(into: &out)
        return out
    }

    func write(into out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let n): out += String(n)
        case .string(let s): JSON.quote(s, into: &out)
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.write(into: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (i, (key, value)) in members.enumerated() {
                if i > 0 { out += "," }
                JSON.quote(key, into: &out)
                out += ":"
                value.write(into: &out)
            }
            out += "}"
        }
    }

    static func quote(_ s: String, into out: inout String) { JSONString.quote(s, into: &out) }

    public static func == (a: JSON, b: JSON) -> Bool { a.text == b.text }
}

extension JSON {
    /// A time as the pair every shape uses: ISO 8601 local string (null for 0) and µs.
    static func time(_ key: String, _ t: Int64, _ text: TimeText) -> [(String, JSON)] {
        [(key, t == 0 ? .null : .string(text.iso(t))), (key + "_us", .int(t))]
    }
}
