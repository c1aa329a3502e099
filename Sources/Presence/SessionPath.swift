/// Object paths of logind sessions.
enum SessionPath {
    static let prefix = "/org/freedesktop/login1/session/"

    /// Whether `path` is one of logind's alias objects (`…/session/auto`,
    /// `…/session/self`): they answer calls, but logind never sends signals
    /// from them, so a watcher must not stay there.
    static func isAlias(_ path: String) -> Bool {
        path == prefix + "auto" || path == prefix + "self"
    }

    /// The path logind serves session `id` at: sd-bus label escaping, where
    /// every byte but ASCII letters (and digits after the first) becomes
    /// `_xx` in lower-case hex, and the empty id becomes `_`. Session "2" is
    /// therefore `…/session/_32`.
    static func forID(_ id: String) -> String {
        guard !id.isEmpty else { return prefix + "_" }
        var out = ""
        for (i, byte) in id.utf8.enumerated() {
            let isLetter = (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            let isDigit = byte >= 0x30 && byte <= 0x39
            if isLetter || (isDigit && i > 0) {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += "_" + hex(byte)
            }
        }
        return prefix + out
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
    }
}
