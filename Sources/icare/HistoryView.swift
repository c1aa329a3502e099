import CAdwaita
import ReminderCore
import ReminderClient
import Localization

/// Today's completed and skipped breaks with their times, and the last seven
/// days as a small chart: one bar per day (completed breaks), each named for
/// screen readers with its day and counts.
final class HistoryView {
    let model: AppModel
    let root: Widget
    private let tally = UI.label(classes: ["heading"])
    private let list = UI.box(true, spacing: 2)
    private let chart = UI.box(false, spacing: 8)
    private var shownToday: [BreakRecord] = []
    private var shownWeek: [DayCount] = []

    init(model: AppModel) {
        self.model = model
        let todayTitle = UI.label(HomeTexts.today, classes: ["title-4"])
        let weekTitle = UI.label(HomeTexts.lastWeek, classes: ["title-4"])
        for w in [todayTitle, weekTitle, tally] { gtk_widget_set_halign(w, GTK_ALIGN_START) }
        gtk_widget_set_halign(chart, GTK_ALIGN_CENTER)
        gtk_widget_set_margin_top(weekTitle, 12)
        root = UI.box(true, spacing: 6, [todayTitle, tally, list, weekTitle, chart])
        gtk_widget_set_margin_top(root, 12)
    }

    func update(_ status: ServiceStatus) {
        UI.setText(tally, HomeTexts.tally(status))
        if model.today != shownToday || gtk_widget_get_first_child(list) == nil {
            shownToday = model.today
            UI.clear(list)
            if model.today.isEmpty {
                let none = UI.label(HomeTexts.noBreaksYet, classes: ["dim-label"])
                gtk_widget_set_halign(none, GTK_ALIGN_START)
                UI.append(list, none)
            }
            // The latest first, at most twelve (a long day has many).
            for r in model.today.reversed().prefix(12) {
                let line = UI.label(HomeTexts.record(r, time: model.time), classes: ["numeric"])
                gtk_widget_set_halign(line, GTK_ALIGN_START)
                UI.append(list, line)
            }
        }
        if model.week != shownWeek {
            shownWeek = model.week
            drawChart()
        }
    }

    private func drawChart() {
        UI.clear(chart)
        let most = max(1, model.week.map { $0.completed + $0.skipped }.max() ?? 1)
        for day in model.week {
            let bar = gtk_level_bar_new_for_interval(0, Double(most))!
            let level = icare_level_bar(gp(bar))
            gtk_orientable_set_orientation(icare_orientable(gp(bar)), GTK_ORIENTATION_VERTICAL)
            gtk_level_bar_set_inverted(level, 1)
            gtk_level_bar_set_value(level, Double(day.completed))
            // No low/high colouring: a count is no warning.
            for name in [GTK_LEVEL_BAR_OFFSET_LOW, GTK_LEVEL_BAR_OFFSET_HIGH, GTK_LEVEL_BAR_OFFSET_FULL] {
                gtk_level_bar_remove_offset_value(level, name)
            }
            gtk_widget_set_size_request(bar, 14, 64)
            gtk_widget_set_halign(bar, GTK_ALIGN_CENTER)
            let name = LocaleTime.weekday(day.date.weekday)
            let spoken = HomeTexts.day(day.date.localized, completed: day.completed, skipped: day.skipped)
            icare_accessible_label(gp(bar), spoken)
            gtk_widget_set_tooltip_text(bar, spoken)
            let count = UI.label("\(day.completed)", classes: ["caption", "numeric"])
            let label = UI.label(name, classes: ["caption"])
            UI.append(chart, UI.box(true, spacing: 2, [count, bar, label]))
        }
    }
}
