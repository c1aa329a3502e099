import CIntl
import Glibc

/// The person's language: glibc's locale and gettext catalogs, set up once
/// at the start of each program (`icared`, `icarectl`).
public enum Localization {
    /// The gettext domain: catalogs are `<dir>/<lang>/LC_MESSAGES/icare.mo`.
    public static let domain = "icare"

    /// Takes the locale from the environment (`LC_ALL`, `LC_*`, `LANG`;
    /// `LANGUAGE` for the catalog order) and binds the catalogs. Never
    /// fails: a locale that is not installed leaves its categories in "C",
    /// whose texts are the English ones in the sources. Numbers stay in "C"
    /// (nothing here formats them by locale, and C parsers must not change).
    public static func setUp(catalogDirectory: String? = nil) {
        if setlocale(LC_ALL, "") == nil {
            // One broken variable (LC_TIME=xx_YY) must not cost the others.
            for category in [LC_CTYPE, LC_MESSAGES, LC_TIME] { _ = setlocale(category, "") }
        }
        _ = setlocale(LC_NUMERIC, "C")
        let directory = catalogDirectory ?? defaultCatalogDirectory()
        _ = bindtextdomain(domain, directory)
        _ = bind_textdomain_codeset(domain, "UTF-8")
        _ = textdomain(domain)
    }

    /// `$TEXTDOMAINDIR` when set (tests, and running from a build folder),
    /// else `share/locale` beside the program's `bin` folder, so every
    /// PREFIX finds the catalogs that `make install` put there.
    public static func defaultCatalogDirectory() -> String {
        if let dir = getenv("TEXTDOMAINDIR").map({ String(cString: $0) }), !dir.isEmpty { return dir }
        return executableFolder().map { parent(of: $0) + "/share/locale" } ?? "/usr/share/locale"
    }

    /// The folder of this program (`/proc/self/exe`), or nil.
    static func executableFolder() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        // The buffer is zeroed and one longer than readlink may fill: it stays NUL-terminated.
        guard readlink("/proc/self/exe", &buffer, buffer.count - 1) > 0 else { return nil }
        return parent(of: buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
    }

    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The locale in effect for `category`: "C", "nl_NL.UTF-8", …
    public static func current(_ category: Int32) -> String {
        setlocale(category, nil).map { String(cString: $0) } ?? "C"
    }
}

/// The translation of `text` in the person's language, its placeholders
/// (`%s`, `%d`, `%1$s`, `%%`) filled with `arguments`. Marks `text` for
/// `xgettext` (see po/README.md); a single literal, so it can be extracted.
public func tr(_ text: StaticString, _ arguments: any CustomStringConvertible...) -> String {
    FormatString.fill(lookup(text.description), arguments)
}

/// The singular or plural translation for the count `n` (`ngettext`): one
/// of "%d break" / "%d breaks", filled with `arguments` (usually `n` itself).
public func trn(_ singular: StaticString, _ plural: StaticString, _ n: Int,
                _ arguments: any CustomStringConvertible...) -> String {
    let s = singular.description, p = plural.description
    let text = s.withCString { cs in
        p.withCString { cp in String(cString: ngettext(cs, cp, UInt(max(0, n)))) }
    }
    return FormatString.fill(text, arguments)
}

/// The translation of `text` in `context` (`pgettext`): for short words
/// whose translation depends on where they stand ("on" for a switch).
public func trc(_ context: StaticString, _ text: StaticString, _ arguments: any CustomStringConvertible...) -> String {
    let key = context.description + "\u{4}" + text.description
    let found = lookup(key)
    return FormatString.fill(found == key ? text.description : found, arguments)
}

/// `text` marked for translation but returned as written: for texts that
/// are both documentation (kept in English) and messages (passed to
/// `translated` where they are shown).
public func trLater(_ text: StaticString) -> String { text.description }

/// `text` translated now, for texts held as data and marked with `tr` where
/// they are written; returns `text` itself when the catalog has no entry.
public func translated(_ text: String) -> String { lookup(text) }

private func lookup(_ id: String) -> String {
    id.withCString { String(cString: gettext($0)) }
}
