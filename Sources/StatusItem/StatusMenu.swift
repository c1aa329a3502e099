import DBusKit
import ReminderCore

/// The item's menu over `com.canonical.dbusmenu` (shape in
/// docs/desktop-facts.md). The layout is rebuilt from the status on each
/// change. Changed properties of existing items go out in
/// `ItemsPropertiesUpdated` (GNOME's AppIndicator re-reads only `type` and
/// `children-display` on `LayoutUpdated`); `LayoutUpdated` is sent only when
/// the tree itself changes. The revision goes up with every change, so
/// `GetLayout` always answers the revision of what it returns.
final class StatusMenu {
    static let interfaceName = InterfaceName("com.canonical.dbusmenu")
    private(set) var root: MenuEntry
    private(set) var revision: UInt32 = 1
    /// Carries out a click on an entry.
    var onAction: ((MenuAction) -> Void)?
    /// A click on the entry that does what a left click on the icon does.
    var onActivate: (() -> Void)?
    /// Local clock times for the labels.
    let clock: (Timestamp) -> String
    weak var object: ExportedObject?

    init(status: ReminderStatus, settings: Settings, extras: MenuExtras, clock: @escaping (Timestamp) -> String) {
        self.clock = clock
        root = MenuModel.root(status, settings, extras: extras, clock: clock)
    }

    /// Rebuilds the menu; announces a new revision when anything shown changed.
    func update(status: ReminderStatus, settings: Settings, extras: MenuExtras) {
        let next = MenuModel.root(status, settings, extras: extras, clock: clock)
        let old = root
        root = next
        if next.structure != old.structure {
            revision &+= 1
            object?.emit(StatusMenu.interfaceName, "LayoutUpdated", [.uint32(revision), .int32(0)])
            return
        }
        let changed = StatusMenu.changes(from: old, to: next)
        guard !changed.isEmpty else { return }
        revision &+= 1
        object?.emit(StatusMenu.interfaceName, "ItemsPropertiesUpdated",
                     [.array(element: "(ia{sv})", changed), .array(element: "(ias)", [])])
    }

    /// `(ia{sv})` for each entry whose properties differ, with only the
    /// properties that differ (both trees have the same shape).
    static func changes(from old: MenuEntry, to new: MenuEntry) -> [DBusValue] {
        zip(old.all, new.all).compactMap { before, after in
            let differ = after.properties.filter { name, value in
                !before.properties.contains { $0.0 == name && $0.1 == value }
            }
            return differ.isEmpty ? nil : .structure([.int32(after.id), .vardict(differ)])
        }
    }

    func entry(_ id: Int32) -> MenuEntry? { root.all.first { $0.id == id } }

    /// `(ia{sv}av)` for `entry`, children down to `depth` levels (−1: all).
    static func layout(_ entry: MenuEntry, depth: Int32, names: [String]) -> DBusValue {
        let props = entry.properties.filter { names.isEmpty || names.contains($0.0) }
        let children: [DBusValue] = depth == 0 ? [] : entry.children.map {
            .variant(layout($0, depth: depth < 0 ? -1 : depth - 1, names: names))
        }
        return .structure([.int32(entry.id), .vardict(props), .array(element: "v", children)])
    }

    func describe() -> Interface {
        let itemProps: Signature = "a(ia{sv})"
        return Interface(
            StatusMenu.interfaceName.rawValue,
            doc: "The status item's menu: the controls, today's tally and the settings.",
            methods: [
                Method("GetLayout", in: [Argument("parentId", "i"), Argument("recursionDepth", "i"), Argument("propertyNames", "as")],
                       out: [Argument("revision", "u"), Argument("layout", "(ia{sv}av)")],
                       doc: "The menu below parentId (0: the root), recursionDepth levels deep (-1: all).") { [unowned self] (call: MethodCall) throws(DBusError) -> [DBusValue] in
                    guard let parent = self.entry(call.arguments[0].int32!) else {
                        throw DBusError.invalidArgs("There is no menu item \(call.arguments[0].int32!).")
                    }
                    return [.uint32(self.revision), StatusMenu.layout(parent, depth: call.arguments[1].int32!,
                                                                      names: call.arguments[2].strings ?? [])]
                },
                Method("GetGroupProperties", in: [Argument("ids", "ai"), Argument("propertyNames", "as")],
                       out: [Argument("properties", itemProps)], doc: "The properties of the given items (none given: all).") { [unowned self] (call: MethodCall) throws(DBusError) -> [DBusValue] in
                    let ids = (call.arguments[0].array ?? []).compactMap(\.int32)
                    let names = call.arguments[1].strings ?? []
                    let chosen = self.root.all.filter { ids.isEmpty || ids.contains($0.id) }
                    return [.array(element: "(ia{sv})", chosen.map { e in
                        .structure([.int32(e.id), .vardict(e.properties.filter { names.isEmpty || names.contains($0.0) })])
                    })]
                },
                Method("GetProperty", in: [Argument("id", "i"), Argument("name", "s")], out: [Argument("value", "v")],
                       doc: "One property of one item.") { [unowned self] (call: MethodCall) throws(DBusError) -> [DBusValue] in
                    guard let e = self.entry(call.arguments[0].int32!),
                          let p = e.properties.first(where: { $0.0 == call.arguments[1].string! }) else {
                        throw DBusError.invalidArgs("No such menu item or property.")
                    }
                    return [.variant(p.1)]
                },
                Method("Event", in: [Argument("id", "i"), Argument("eventId", "s"), Argument("data", "v"), Argument("timestamp", "u")],
                       doc: "A click (eventId \"clicked\") or another event on an item.") { [unowned self] (call: MethodCall) throws(DBusError) -> [DBusValue] in
                    try self.event(call.arguments[0].int32!, call.arguments[1].string!)
                    return []
                },
                Method("EventGroup", in: [Argument("events", "a(isvu)")], out: [Argument("idErrors", "ai")],
                       doc: "Several events; answers the ids not found.") { [unowned self] (call: MethodCall) throws(DBusError) -> [DBusValue] in
                    var errors: [DBusValue] = []
                    for e in call.arguments[0].array ?? [] {
                        guard let m = e.structure, let id = m[0].int32, let kind = m[1].string else { continue }
                        do { try self.event(id, kind) } catch { errors.append(.int32(id)) }
                    }
                    return [.array(element: "i", errors)]
                },
                Method("AboutToShow", in: [Argument("id", "i")], out: [Argument("needUpdate", "b")],
                       doc: "The menu is about to open; the layout is always current.") { _ in [.bool(false)] },
                Method("AboutToShowGroup", in: [Argument("ids", "ai")], out: [Argument("updatesNeeded", "ai"), Argument("idErrors", "ai")],
                       doc: "The same for several items.") { _ in [.array(element: "i", []), .array(element: "i", [])] },
            ],
            properties: [
                Property("Version", "u", doc: "The dbusmenu protocol version.", emitsChange: .const) { .uint32(3) },
                Property("TextDirection", "s", doc: "ltr or rtl.", emitsChange: .const) { .string("ltr") },
                Property("Status", "s", doc: "normal.", emitsChange: .const) { .string("normal") },
                Property("IconThemePath", "as", doc: "No extra icon folders.", emitsChange: .const) { .strings([]) },
            ],
            signals: [
                SignalDescription("LayoutUpdated", [Argument("revision", "u"), Argument("parent", "i")], doc: "Items came or went; fetch the menu again."),
                SignalDescription("ItemsPropertiesUpdated", [Argument("updatedProps", itemProps), Argument("removedProps", "a(ias)")],
                                  doc: "Properties of items changed: only the changed ones of existing items; none removed."),
                SignalDescription("ItemActivationRequested", [Argument("id", "i"), Argument("timestamp", "u")], doc: "Not sent."),
            ])
    }

    private func event(_ id: Int32, _ kind: String) throws(DBusError) {
        guard let e = entry(id) else { throw DBusError.invalidArgs("There is no menu item \(id).") }
        guard kind == "clicked" else { return }
        if e.activates { onActivate?() } else if let action = e.action { onAction?(action) }
    }
}
