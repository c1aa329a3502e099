import DBusKit
import ReminderCore

/// What a menu item does when clicked.
public enum MenuAction: Equatable, Sendable {
    /// An event for the engine (start, snooze, skip, pause, resume).
    case event(ReminderEvent)
    /// A setting changed the way `Properties.Set` changes it.
    case setting(SettingKey, SettingValue)
    /// The app opened on one of its actions (`desktop`: the preferences' page "This desktop").
    case app(String)
}

/// What the menu shows besides the status and the settings: the phones a reminder taps (`Phones`), and
/// whether something a person would expect does not work here (`Capabilities` with an entry `missing`).
public struct MenuExtras: Equatable, Sendable {
    public var phones: [String] = []
    public var cannotSee = false
    public init(phones: [String] = [], cannotSee: Bool = false) {
        self.phones = phones
        self.cannotSee = cannotSee
    }
}

/// One entry of the menu as dbusmenu describes it: an id, its properties,
/// children, and what a click does. Every entry carries each property that
/// can change, defaults included (`enabled`, `visible`, `type`, `label`, the
/// toggle's): Plasma's libdbusmenuqt applies only the properties present in
/// a layout, so an omitted `enabled = true` never turns a greyed item back on.
struct MenuEntry {
    let id: Int32
    var properties: [(String, DBusValue)]
    var children: [MenuEntry] = []
    var action: MenuAction?
    /// A click does what a left click on the icon does (`StatusItem.activate`).
    var activates = false

    /// The properties every entry states: its type, whether it can be clicked and is shown.
    static func base(_ type: String, enabled: Bool = true) -> [(String, DBusValue)] {
        [("type", .string(type)), ("enabled", .bool(enabled)), ("visible", .bool(true))]
    }

    static func item(_ id: Int32, _ label: String, enabled: Bool = true, _ action: MenuAction?) -> MenuEntry {
        MenuEntry(id: id, properties: base("standard", enabled: enabled) + [("label", .string(label))],
                  action: enabled ? action : nil)
    }

    static func toggle(_ id: Int32, _ label: String, radio: Bool, on: Bool, _ action: MenuAction) -> MenuEntry {
        MenuEntry(id: id, properties: base("standard") + [("label", .string(label)), ("toggle-type", .string(radio ? "radio" : "checkmark")),
                                                          ("toggle-state", .int32(on ? 1 : 0))], action: action)
    }

    static func separator(_ id: Int32) -> MenuEntry {
        MenuEntry(id: id, properties: base("separator"))
    }

    static func submenu(_ id: Int32, _ label: String, _ children: [MenuEntry]) -> MenuEntry {
        MenuEntry(id: id, properties: base("standard") + [("label", .string(label)), ("children-display", .string("submenu"))],
                  children: children)
    }

    /// The shape of the tree below this entry: ids and their children, no properties.
    var structure: [Int32] { [id, Int32(children.count)] + children.flatMap(\.structure) }

    /// This entry and every entry below it.
    var all: [MenuEntry] { [self] + children.flatMap(\.all) }
}

/// The menu for a status and the settings: the controls, today's tally,
/// and the settings as radio and check items. Ids are fixed per entry so
/// that a click on a menu shown a moment ago still means the same thing.
enum MenuModel {
    static let intervals: [UInt32] = [15, 20, 25, 30, 45]
    static let breakLengths: [UInt32] = [10, 20, 30]
    static let snoozeLengths: [UInt32] = [5, 10, 15]

    static func root(_ status: ReminderStatus, _ settings: Settings, extras: MenuExtras = MenuExtras(), clock: (Timestamp) -> String) -> MenuEntry {
        let phones = extras.phones
        let state = status.state
        let running = state == .waiting || state == .snoozed || state == .due
        let userPaused = state == .paused && status.pauseReason == .user
        // First, what a left click does elsewhere: GNOME's AppIndicator opens the menu on a left click.
        var first = MenuEntry.item(18, StatusItemTexts.activateLabel(status, clock: clock), nil)
        first.activates = true
        var items: [MenuEntry] = [
            first,
            .separator(19),
            .item(1, ActionTexts.startBreak, enabled: running, .event(.startBreak)),
            .item(2, ActionTexts.snooze(seconds: settings.snoozeDuration), enabled: state == .due, .event(.snooze(seconds: 0))),
            .item(3, ActionTexts.skip, enabled: state == .due || state == .break, .event(.skip)),
            .separator(4),
            .item(5, ActionTexts.pause30, enabled: !userPaused, .event(.pause(seconds: 1800))),
            .item(6, ActionTexts.pause60, enabled: !userPaused, .event(.pause(seconds: 3600))),
            .item(7, ActionTexts.pauseUntilResumed, enabled: !userPaused, .event(.pause(seconds: 0))),
            .item(8, ActionTexts.resume, enabled: userPaused, .event(.resume)),
            .separator(9),
            .item(10, StatusItemTexts.tally(status), enabled: false, nil),
            .separator(11),
        ]
        items.append(.submenu(12, StatusItemTexts.interval, intervals.enumerated().map { i, m in
            .toggle(120 + Int32(i), StatusItemTexts.minutes(m), radio: true, on: settings.interval == m * 60,
                    .setting(.interval, .uint(m * 60)))
        }))
        items.append(.submenu(13, StatusItemTexts.breakLength, breakLengths.enumerated().map { i, s in
            .toggle(130 + Int32(i), StatusItemTexts.seconds(s), radio: true, on: settings.breakDuration == s,
                    .setting(.breakDuration, .uint(s)))
        }))
        items.append(.submenu(14, StatusItemTexts.snoozeLength, snoozeLengths.enumerated().map { i, m in
            .toggle(140 + Int32(i), StatusItemTexts.minutes(m), radio: true, on: settings.snoozeDuration == m * 60,
                    .setting(.snoozeDuration, .uint(m * 60)))
        }))
        items.append(.toggle(15, StatusItemTexts.weekdaysOnly, radio: false, on: settings.weekdaysOnly,
                             .setting(.weekdaysOnly, .bool(!settings.weekdaysOnly))))
        items.append(.toggle(16, StatusItemTexts.sound, radio: false, on: settings.sound,
                             .setting(.sound, .bool(!settings.sound))))
        items.append(.toggle(20, StatusItemTexts.phoneReminders, radio: false, on: settings.phoneReminders,
                             .setting(.phoneReminders, .bool(!settings.phoneReminders))))
        if !phones.isEmpty { items.append(.item(21, StatusItemTexts.phones(phones), enabled: false, nil)) }
        if extras.cannotSee { items.append(.item(22, StatusItemTexts.cannotSee, .app("desktop"))) }
        items.append(.submenu(17, StatusItemTexts.doNotDisturb, DndPolicy.allCases.enumerated().map { i, p in
            .toggle(170 + Int32(i), StatusItemTexts.policy(p), radio: true, on: settings.dndPolicy == p,
                    .setting(.dndPolicy, .string(p.rawValue)))
        }))
        return MenuEntry(id: 0, properties: MenuEntry.base("standard") + [("children-display", .string("submenu"))], children: items)
    }
}
