import Foundation

/// `Capabilities` (`a(sss)`) from a client's text: busctl's (`a(sss) N "name" "state" "words" …`) or
/// gdbus's (`(<[('name', 'state', 'words'), …]>,)`, double quotes around words with an apostrophe),
/// by name: (state, words).
public enum CapabilityText {
    public static func parse(_ text: String) throws -> [String: (state: String, words: String)] {
        let token = try NSRegularExpression(pattern: #"'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)""#)
        let strings = token.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { m in
            let r = m.range(at: 1).location != NSNotFound ? m.range(at: 1) : m.range(at: 2)
            // Both clients escape quotes and apostrophes: the words as icared sent them.
            return String(text[Range(r, in: text)!]).replacingOccurrences(of: #"\\(.)"#, with: "$1", options: .regularExpression)
        }
        guard strings.count % 3 == 0, !strings.isEmpty else { throw HarnessError("Capabilities is \(text)") }
        var byName: [String: (String, String)] = [:]
        for i in stride(from: 0, to: strings.count, by: 3) { byName[strings[i]] = (strings[i + 1], strings[i + 2]) }
        return byName
    }

    /// Waits until `read` says `state` for each of `expected` (name → state); the service learns the desktop
    /// in round trips, so a first read may be early.
    public static func wait(for expected: [String: String], timeout: TimeInterval = 10,
                            _ read: () throws -> [String: (state: String, words: String)]) throws -> [String: (state: String, words: String)] {
        var last: [String: (state: String, words: String)] = [:]
        let ok = try waitUntil(timeout: timeout, interval: 0.1) {
            last = try read()
            return expected.allSatisfy { last[$0.key]?.state == $0.value }
        }
        guard ok else {
            throw HarnessError("Capabilities: want \(expected.sorted { $0.key < $1.key }), it says "
                               + last.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.state) (\($0.value.words))" }.joined(separator: "; "))
        }
        return last
    }
}

extension ServiceHarness {
    /// `Capabilities` by name, read with busctl.
    public func capabilities() throws -> [String: (state: String, words: String)] {
        try CapabilityText.parse(try property("Capabilities"))
    }

    /// Waits until `Capabilities` says `state` for each of `expected`, and returns it.
    @discardableResult
    public func capabilities(become expected: [String: String], timeout: TimeInterval = 10) throws -> [String: (state: String, words: String)] {
        try CapabilityText.wait(for: expected, timeout: timeout) { try capabilities() }
    }
}

extension DesktopRootSession {
    /// The root's icared's `Capabilities` (gdbus inside), once it says `state` for each of `expected`.
    @discardableResult
    public func capabilities(become expected: [String: String], timeout: TimeInterval = 10) throws -> [String: (state: String, words: String)] {
        try CapabilityText.wait(for: expected, timeout: timeout) { try CapabilityText.parse(try icareProperty("Capabilities")) }
    }
}
