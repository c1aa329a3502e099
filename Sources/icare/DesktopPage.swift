import CAdwaita
import ReminderClient
import Localization

/// The preferences' second page, "This desktop": the service's `Capabilities`,
/// a row each (the heading, its words, and a word for its state), followed
/// live; the sandbox's limits in sentences under them. The same list as
/// `icarectl doctor`.
final class DesktopPage {
    let page: Widget
    private let group: Widget
    private let limits: Widget
    private var rows: [Widget] = []
    private var shown: [ReportedCapability]?

    init() {
        page = adw_preferences_page_new()!
        adw_preferences_page_set_title(icare_adw_preferences_page(gp(page)), DesktopPage.title)
        adw_preferences_page_set_icon_name(icare_adw_preferences_page(gp(page)), "computer-symbolic")
        group = adw_preferences_group_new()!
        adw_preferences_group_set_title(icare_adw_preferences_group(gp(group)), DesktopPage.heading)
        adw_preferences_group_set_description(icare_adw_preferences_group(gp(group)), DesktopPage.hint)
        limits = adw_preferences_group_new()!
        adw_preferences_group_set_title(icare_adw_preferences_group(gp(limits)), ServiceStatus.sandboxHeading)
        for g in [group, limits] { adw_preferences_page_add(icare_adw_preferences_page(gp(page)), icare_adw_preferences_group(gp(g))) }
    }

    /// Shows `status`'s capabilities, rebuilt only when they changed.
    func update(_ status: ServiceStatus) {
        adw_preferences_group_set_description(icare_adw_preferences_group(gp(limits)), status.sandboxSentences.joined(separator: "\n"))
        gtk_widget_set_visible(limits, status.sandboxLimits.isEmpty ? 0 : 1)
        guard status.capabilities != shown else { return }
        shown = status.capabilities
        for row in rows { adw_preferences_group_remove(icare_adw_preferences_group(gp(group)), row) }
        rows = status.capabilities.map { c in
            let row = Self.row(c)
            adw_preferences_group_add(icare_adw_preferences_group(gp(group)), row)
            return row
        }
    }

    /// One capability's row: its heading, its words, and a word for its state (the welcome shows the same rows).
    static func row(_ c: ReportedCapability) -> Widget {
        let row = adw_action_row_new()!
        adw_preferences_row_set_title(icare_adw_preferences_row(gp(row)), c.title)
        adw_action_row_set_subtitle(icare_adw_action_row(gp(row)), c.words)
        let state = UI.label(stateWord(c.state), classes: c.fails ? ["warning"] : ["dim-label"])
        gtk_widget_set_valign(state, GTK_ALIGN_CENTER)
        adw_action_row_add_suffix(icare_adw_action_row(gp(row)), state)
        return row
    }

    static var title: String { tr("This desktop") }
    static var heading: String { tr("What iCare can see here") }
    static var hint: String { tr("The same list as 'icarectl doctor'. It follows the desktop as things change.") }

    /// The state as a word beside each row.
    static func stateWord(_ state: String) -> String {
        switch state {
        // TRANSLATORS: beside each row of "What iCare can see here".
        case "works": return tr("Works")
        case "limited": return tr("In part")
        case "off": return tr("Off")
        default: return tr("Not here")
        }
    }
}
