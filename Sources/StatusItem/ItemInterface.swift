import DBusKit
import RingDrawing

/// `org.kde.StatusNotifierItem` described for DBusKit (shape in
/// docs/desktop-facts.md). Hosts learn of changes through the `New*`
/// signals and read the properties again; no `PropertiesChanged` is sent.
enum ItemInterface {
    static let name = InterfaceName("org.kde.StatusNotifierItem")

    static func describe(_ item: StatusItem) -> Interface {
        func text(_ name: String, _ doc: String, _ read: @escaping () -> String) -> Property {
            Property(name, "s", doc: doc, emitsChange: .false) { .string(read()) }
        }
        let point = [Argument("x", "i"), Argument("y", "i")]
        return Interface(
            name.rawValue,
            doc: "iCare in the panel: a ring that empties towards the next break, and a menu.",
            methods: [
                Method("Activate", in: point, doc: "A left click: starts the break when one is due, else shows the status in a brief notification.") { [unowned item] _ in
                    item.activate()
                    return []
                },
                Method("SecondaryActivate", in: point, doc: "A middle click: does nothing.") { _ in [] },
                Method("ContextMenu", in: point, doc: "Hosts show the Menu themselves; does nothing.") { _ in [] },
                Method("Scroll", in: [Argument("delta", "i"), Argument("orientation", "s")], doc: "Does nothing.") { _ in [] },
            ],
            properties: [
                text("Category", "ApplicationStatus.") { "ApplicationStatus" },
                text("Id", "A stable name for the item.") { "icare" },
                text("Title", "iCare.") { StatusItemTexts.title },
                text("Status", "Active, or NeedsAttention while a break is due (never Passive, which hosts hide).") { item.itemStatus },
                Property("WindowId", "i", doc: "No window.", emitsChange: .const) { .int32(0) },
                text("IconName", "Empty while the ring is drawn (hosts prefer a theme icon that exists over IconPixmap); the installed icon only if no ring could be drawn.") { item.iconName },
                Property("IconPixmap", "a(iiay)", doc: "The ring at 16, 22, 24, 32 and 48 px, ARGB32 in network byte order.",
                         emitsChange: .false) { item.pixmaps },
                text("OverlayIconName", "None.") { "" },
                Property("OverlayIconPixmap", "a(iiay)", doc: "None.", emitsChange: .const) { .array(element: "(iiay)", []) },
                text("AttentionIconName", "Empty, like IconName.") { item.iconName },
                Property("AttentionIconPixmap", "a(iiay)", doc: "The ring, as IconPixmap: hosts draw this one while the Status is NeedsAttention.",
                         emitsChange: .false) { item.pixmaps },
                text("AttentionMovieName", "None.") { "" },
                text("IconAccessibleDesc", "What the ring shows, in words, for screen readers (\"Next break in 12 minutes\").") {
                    item.accessibleDescription
                },
                text("AttentionAccessibleDesc", "The same while a break is due (\"Break due\").") { item.accessibleDescription },
                Property("ToolTip", "(sa(iiay)ss)", doc: "The full status and today's tally.", emitsChange: .false) {
                    .structure([.string(StatusItem.iconName), .array(element: "(iiay)", []),
                                .string(StatusItemTexts.title), .string(item.tooltip)])
                },
                Property("ItemIsMenu", "b", doc: "False: a left click is Activate.", emitsChange: .const) { .bool(false) },
                Property("Menu", "o", doc: "The com.canonical.dbusmenu object.", emitsChange: .const) { .objectPath(StatusItem.menuPath) },
                text("XAyatanaLabel", "The time to the next break, beside the icon where the host shows it.") { item.label },
                text("XAyatanaLabelGuide", "The widest label, for hosts that reserve room.") { "88 min" },
            ],
            signals: [
                SignalDescription("NewTitle", doc: "Title changed."),
                SignalDescription("NewIcon", doc: "IconPixmap or IconAccessibleDesc changed."),
                SignalDescription("NewAttentionIcon", doc: "AttentionIconPixmap or AttentionAccessibleDesc changed (sent while a break is due)."),
                SignalDescription("NewOverlayIcon", doc: "Not sent."),
                SignalDescription("NewToolTip", doc: "ToolTip changed."),
                SignalDescription("NewStatus", [Argument("status", "s")], doc: "Status changed."),
                SignalDescription("XAyatanaNewLabel", [Argument("label", "s"), Argument("guide", "s")], doc: "XAyatanaLabel changed."),
            ])
    }
}
