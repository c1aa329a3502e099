import CAdwaita
import ReminderCore
import ReminderClient
import Localization

/// Today's completed and skipped breaks with their times, and the last seven
/// days as a small chart (`WeekChart`: completed against not taken, each day
/// named for screen readers with its weekday and counts).
final class HistoryView {
    let model: AppModel
    let root: Widget
    private let tally = UI.label(classes: ["heading"])
    private let list = UI.box(true, spacing: 2)
    private let chart = WeekChart()
    private var shownToday: [BreakRecord] = []

    init(model: AppModel) {
        self.model = model
        let todayTitle = UI.label(HomeTexts.today, classes: ["title-4"])
        let weekTitle = UI.label(HomeTexts.lastWeek, classes: ["title-4"])
        for w in [todayTitle, weekTitle, tally] { gtk_widget_set_halign(w, GTK_ALIGN_START) }
        gtk_widget_set_halign(chart.root, GTK_ALIGN_CENTER)
        gtk_widget_set_margin_top(weekTitle, 12)
        root = UI.box(true, spacing: 6, [todayTitle, tally, list, weekTitle, chart.root])
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
        chart.show(model.week)
    }
}
