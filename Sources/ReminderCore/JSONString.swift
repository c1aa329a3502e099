/// A JSON string literal, as `icarectl --json` and the phones' command lists write one: quotes,
/// backslashes and control characters escaped, everything else as it is (UTF-8).
public enum JSONString {
    public static func quote(_ s: String, into out: inout String) {
        out += "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where u.value < 0x20:
                let hex = Array("0123456789abcdef")
                out += "\\u00" + String(hex[Int(u.value >> 4)]) + String(hex[Int(u.value & 15)])
            default: out.unicodeScalars.append(u)
            }
        }
        out += "\""
    }

    public static func quoted(_ s: String) -> String {
        var out = ""
        quote(s, into: &out)
        return out
    }
}
