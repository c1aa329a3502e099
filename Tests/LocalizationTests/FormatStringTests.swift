@testable import Localization
import Testing

@Suite struct FormatStringTests {
    @Test func fillsPlaceholdersInOrder() {
        #expect(FormatString.fill("Next break at %s.", ["14:32"]) == "Next break at 14:32.")
        #expect(FormatString.fill("%d completed, %d skipped", [3, 1]) == "3 completed, 1 skipped")
        #expect(FormatString.fill("%ld s and %lu s", [5, 6]) == "5 s and 6 s")
    }

    @Test func numberedPlaceholdersLetATranslationReorder() {
        #expect(FormatString.fill("%2$s, dan %1$s", ["first", "second"]) == "second, dan first")
    }

    @Test func aDoublePercentIsOnePercent() {
        #expect(FormatString.fill("100%% of %d", [3]) == "100% of 3")
        #expect(FormatString.fill("100%%", []) == "100%")
    }

    @Test func aBrokenCatalogNeverCrashes() {
        // More placeholders than arguments, a bad number, a lone % at the end.
        #expect(FormatString.fill("%s and %s", ["one"]) == "one and %s")
        #expect(FormatString.fill("%3$s", ["one"]) == "%3$s")
        #expect(FormatString.fill("%0$s %", ["one"]) == "%0$s %")
        #expect(FormatString.fill("50% off", []) == "50% off")
    }

    @Test func textWithoutPlaceholdersIsUntouched() {
        #expect(FormatString.fill("Well done.", ["unused"]) == "Well done.")
    }
}
