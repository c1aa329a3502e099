@testable import DBusKit
import Testing

/// `String.replacingAll` is DBusKit's own search (the service links no
/// `_StringProcessing`; docs/architecture.md), used by the introspection XML's
/// comments and by icarectl's man page and completions.
@Suite struct TextReplacementTests {
    @Test func replacesEveryOccurrenceLeftToRight() {
        #expect("a-b-c".replacingAll("-", with: "\\-") == "a\\-b\\-c")
        #expect("aaaa".replacingAll("aa", with: "b") == "bb")
        #expect("aaa".replacingAll("aa", with: "b") == "ba")
        #expect("it's".replacingAll("'", with: "'\\''") == "it'\\''s")
    }

    @Test func leavesTextWithoutTheTargetAlone() {
        #expect("plain".replacingAll("--", with: "- -") == "plain")
        #expect("".replacingAll("x", with: "y") == "")
        #expect("abc".replacingAll("", with: "y") == "abc")
        #expect("ab".replacingAll("abc", with: "y") == "ab")
    }

    @Test func matchesWholeCharactersOnly() {
        // "e" followed by a combining acute accent is one Character, "é".
        #expect("cafe\u{301} cafe".replacingAll("cafe", with: "bar") == "cafe\u{301} bar")
        #expect("née".replacingAll("é", with: "e") == "nee")
    }

    @Test func anIntrospectionCommentNeverHoldsADoubleHyphen() {
        for doc in ["a -- b", "a --- b", "----", "x-\n--y"] {
            let xml = Introspection.comment(doc, indent: "  ")
            // Only the comment's own "<!--" and "-->".
            #expect(xml.ranges(of: "--").count == 2, "\(doc) gave \(xml)")
        }
    }
}
