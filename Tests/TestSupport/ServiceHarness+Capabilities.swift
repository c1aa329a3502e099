import Foundation

extension ServiceHarness {
    /// `Capabilities` by name: (state, words), read with busctl (`a(sss) N "name" "state" "words" …`).
    public func capabilities() throws -> [String: (state: String, words: String)] {
        let text = try property("Capabilities")
        let strings = try NSRegularExpression(pattern: #""((?:[^"\\]|\\.)*)""#)
            .matches(in: text, range: NSRange(text.startIndex..., in: text))
            .map { m in
                // busctl escapes quotes and apostrophes (\" \'): the words as icared sent them.
                String(text[Range(m.range(at: 1), in: text)!]).replacingOccurrences(of: #"\\(.)"#, with: "$1", options: .regularExpression)
            }
        guard strings.count % 3 == 0, !strings.isEmpty else { throw HarnessError("Capabilities is \(text)") }
        var byName: [String: (String, String)] = [:]
        for i in stride(from: 0, to: strings.count, by: 3) { byName[strings[i]] = (strings[i + 1], strings[i + 2]) }
        return byName
    }

    /// Waits until `Capabilities` says `state` for each of `expected` (name → state), and returns it. The
    /// service learns the desktop in round trips, so a first read may be early.
    @discardableResult
    public func capabilities(become expected: [String: String], timeout: TimeInterval = 10) throws -> [String: (state: String, words: String)] {
        var last: [String: (state: String, words: String)] = [:]
        let ok = try waitUntil(timeout: timeout, interval: 0.1) {
            last = try capabilities()
            return expected.allSatisfy { last[$0.key]?.state == $0.value }
        }
        guard ok else {
            throw HarnessError("Capabilities: want \(expected.sorted { $0.key < $1.key }), it says "
                               + last.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.state) (\($0.value.words))" }.joined(separator: "; "))
        }
        return last
    }
}
