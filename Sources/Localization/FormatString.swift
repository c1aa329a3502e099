/// printf-style placeholders in translated texts, filled without ever
/// trusting the catalog: `%s`, `%d`, `%u`, `%ld`, `%lu`, their numbered forms
/// (`%1$s`, for translations that reorder) and `%%`. A placeholder with no
/// argument behind it is left as written, never read out of bounds, so a
/// broken catalog shows a wrong text, not a crash. The types themselves are
/// checked where they can go wrong: `msgfmt --check` in the test suite.
public enum FormatString {
    /// `format` with its placeholders replaced by `arguments`, in order or by number.
    public static func fill(_ format: String, _ arguments: [any CustomStringConvertible]) -> String {
        guard format.utf8.contains(UInt8(ascii: "%")) else { return format }
        var out = ""
        var next = 0
        var i = format.startIndex
        while i < format.endIndex {
            let ch = format[i]
            guard ch == "%" else {
                out.append(ch)
                i = format.index(after: i)
                continue
            }
            guard let directive = Directive(format, after: i) else {
                out.append(ch)
                i = format.index(after: i)
                continue
            }
            switch directive.kind {
            case .percent:
                out.append("%")
            case .argument(let position):
                let index = position.map { $0 - 1 } ?? next
                if position == nil { next += 1 }
                if arguments.indices.contains(index) {
                    out += arguments[index].description
                } else {
                    out += format[i..<directive.end]
                }
            }
            i = directive.end
        }
        return out
    }

    /// One `%…` directive: where it ends and what it stands for.
    struct Directive {
        enum Kind { case percent, argument(position: Int?) }
        let kind: Kind
        let end: String.Index

        init?(_ s: String, after percent: String.Index) {
            var j = s.index(after: percent)
            guard j < s.endIndex else { return nil }
            if s[j] == "%" {
                kind = .percent
                end = s.index(after: j)
                return
            }
            var digits = 0
            var number = 0
            while j < s.endIndex, let d = s[j].wholeNumberValue, s[j].isASCII {
                number = number * 10 + d
                digits += 1
                j = s.index(after: j)
            }
            var position: Int?
            if digits > 0 {
                guard j < s.endIndex, s[j] == "$", number > 0 else { return nil }
                position = number
                j = s.index(after: j)
            }
            while j < s.endIndex, s[j] == "l" { j = s.index(after: j) }
            guard j < s.endIndex, "sdiu".contains(s[j]) else { return nil }
            kind = .argument(position: position)
            end = s.index(after: j)
        }
    }
}
