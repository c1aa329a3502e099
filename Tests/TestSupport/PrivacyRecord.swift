import Foundation

/// What a program was seen doing, in the words of docs/privacy.md: per kind ("files", "sockets",
/// "session bus", "system bus"), each item (a path, a socket, a bus name, normalized) with the verbs
/// seen ("reads", "writes", "watches", "runs"; "connects", "opens"; "calls", "watches", "owns").
public struct PrivacyRecord: Sendable {
    public private(set) var kinds: [String: [String: Set<String>]] = [:]

    public init() {}

    public mutating func add(_ kind: String, _ item: String, _ verb: String) {
        kinds[kind, default: [:]][item, default: []].insert(verb)
    }

    public mutating func merge(_ other: PrivacyRecord) {
        for (kind, items) in other.kinds {
            for (item, verbs) in items { for verb in verbs { add(kind, item, verb) } }
        }
    }

    public func items(_ kind: String) -> [String: Set<String>] { kinds[kind] ?? [:] }

    /// One line per item, sorted, for a person to read in the test's log.
    public var text: String {
        kinds.keys.sorted().map { kind in
            "[\(kind)]\n" + (kinds[kind] ?? [:]).keys.sorted().map { item in
                "  \(item)  (\((kinds[kind]?[item] ?? []).sorted().joined(separator: ", ")))"
            }.joined(separator: "\n")
        }.joined(separator: "\n")
    }
}

/// Turns a test's paths into the page's words: the test's home is `~`, its XDG folders the usual ones,
/// a process id `<pid>`, a day's file `DAY`, a paired phone's id `PHONE`, another entry of KDE
/// Connect's folder `ENTRY`, a machine's id `MACHINE`, a shader in Mesa's cache `SHADER`.
public struct PathNormalizer: Sendable {
    /// Longest first: (the test's path, the page's word).
    public let replacements: [(String, String)]
    public let phoneIDs: [String]

    public init(replacements: [(String, String)], phoneIDs: [String] = []) {
        self.replacements = replacements.sorted { $0.0.count > $1.0.count }
        self.phoneIDs = phoneIDs
    }

    public func callAsFunction(_ path: String) -> String {
        var p = path
        for (from, to) in replacements where p == from || p.hasPrefix(from + "/") {
            p = to + p.dropFirst(from.count)
            break
        }
        for id in phoneIDs where !id.isEmpty { p = p.replacingOccurrences(of: id, with: "PHONE") }
        // Each other entry of KDE Connect's folder (its own `config`, `trusted_devices`, …).
        p = p.replacingOccurrences(of: #"^~/\.config/kdeconnect/(?!PHONE/)[^/]+/kdeconnect_runcommand"#, with: "~/.config/kdeconnect/ENTRY/kdeconnect_runcommand",
                                   options: .regularExpression)
        // libcanberra's cache, named after the machine's id and the architecture.
        p = p.replacingOccurrences(of: #"/event-sound-cache\.tdb\.[^/]+$"#, with: "/event-sound-cache.tdb.MACHINE", options: .regularExpression)
        // Mesa's shader cache (GTK's OpenGL renderer): a folder per hash's first byte, a file per shader.
        p = p.replacingOccurrences(of: #"/mesa_shader_cache/[0-9a-f]{2}(/[0-9a-f]+(\.tmp)?)?$"#, with: "/mesa_shader_cache/SHADER", options: .regularExpression)
        p = p.replacingOccurrences(of: #"\.[0-9]+\.tmp$"#, with: ".<pid>.tmp", options: .regularExpression)
        p = p.replacingOccurrences(of: #"/history/[0-9]{4}-[0-9]{2}-[0-9]{2}"#, with: "/history/DAY", options: .regularExpression)
        p = p.replacingOccurrences(of: #"^/proc/[0-9]+/"#, with: "/proc/self/", options: .regularExpression)
        // The Swift runtime's libraries, wherever the toolchain is (a release links them in).
        if let r = p.range(of: "/usr/lib/swift/linux/") { p = "SWIFT" + p[r.lowerBound...] }
        return p
    }
}
