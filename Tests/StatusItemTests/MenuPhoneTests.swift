@testable import StatusItem
import ReminderCore
import DBusKit
import Testing

/// "Remind my phone too" in the ring's menu: a check item that flips `PhoneReminders`, and the phones
/// it taps named under it once there are any (English: no catalog is set up here).
@Suite struct MenuPhoneTests {
    static func entries(_ settings: Settings, phones: [String]) -> [MenuEntry] {
        MenuModel.root(ReminderStatus(state: .waiting, nextBreak: 1), settings, extras: MenuExtras(phones: phones), clock: { _ in "14:20" }).all
    }

    static func label(_ e: MenuEntry) -> String? { e.properties.first { $0.0 == "label" }?.1.string }

    @Test func theCheckItemFlipsTheSettingAndShowsIt() throws {
        let off = try #require(Self.entries(Settings(), phones: []).first { $0.id == 20 })
        #expect(Self.label(off) == "Remind my phone too")
        #expect(off.properties.contains { $0.0 == "toggle-state" && $0.1 == .int32(0) })
        #expect(off.action == .setting(.phoneReminders, .bool(true)))
        let settings = try Settings().setting(.phoneReminders, to: .bool(true))
        let on = try #require(Self.entries(settings, phones: []).first { $0.id == 20 })
        #expect(on.properties.contains { $0.0 == "toggle-state" && $0.1 == .int32(1) })
        #expect(on.action == .setting(.phoneReminders, .bool(false)))
    }

    @Test func thePhonesAreNamedOnceThereAreAny() throws {
        #expect(!Self.entries(Settings(), phones: []).contains { $0.id == 21 })
        let listed = try #require(Self.entries(Settings(), phones: ["Pixel 7 (KDE Connect)", "Fairphone (GSConnect)"]).first { $0.id == 21 })
        #expect(Self.label(listed) == "Phones: Pixel 7 (KDE Connect), Fairphone (GSConnect)")
        #expect(listed.action == nil, "information, not a control")
        #expect(listed.properties.contains { $0.0 == "enabled" && $0.1 == .bool(false) })
    }
}

/// The item that opens the app's page "This desktop": only while something is missing here.
@Suite struct MenuDesktopTests {
    @Test func shownOnlyWhileICareCannotSeeSomething() throws {
        let status = ReminderStatus(state: .waiting, nextBreak: 1)
        #expect(!MenuModel.root(status, Settings(), clock: { _ in "14:20" }).all.contains { $0.id == 22 })
        let entries = MenuModel.root(status, Settings(), extras: MenuExtras(cannotSee: true), clock: { _ in "14:20" }).all
        let item = try #require(entries.first { $0.id == 22 })
        #expect(item.action == .app("desktop"))
        #expect(item.properties.contains { $0.0 == "label" && $0.1 == .string("iCare cannot see everything here…") })
    }
}
