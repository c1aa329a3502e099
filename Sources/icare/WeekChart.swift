import CAdwaita
import Glibc
import ReminderClient
import Localization

/// The last seven days as a small chart: for each day a filled bar for the
/// completed breaks beside an outlined one for those skipped or missed (told apart by
/// their shape, not their colour alone), both counts under them, and the
/// day's name. Each day is one element for screen readers, named with its
/// weekday and counts ("Tuesday: 3 completed, 1 skipped"). In a language read
/// right to left the days run from the right and each day's bars with them.
final class WeekChart {
    let root: Widget
    private let days = UI.box(false, spacing: 10)
    private var shown: [DayCount] = []

    init() {
        gtk_widget_set_halign(days, GTK_ALIGN_CENTER)
        let legend = UI.label(HomeTexts.chartLegend, classes: ["caption", "dim-label"], wrap: true)
        root = UI.box(true, spacing: 6, [days, legend])
    }

    /// Shows `week` (oldest first) unless it is what shows already.
    func show(_ week: [DayCount]) {
        guard week != shown else { return }
        shown = week
        UI.clear(days)
        let most = max(1, week.map { max($0.completed, $0.notTaken) }.max() ?? 1)
        for day in week {
            let bars = DayBars(completed: day.completed, notTaken: day.notTaken, most: most)
            let spoken = HomeTexts.day(WeekChart.weekdayName(day.date.weekday), day.words)
            icare_accessible_label(gp(bars.widget), spoken)
            gtk_widget_set_tooltip_text(bars.widget, spoken)
            let counts = UI.label(HomeTexts.dayCounts(completed: day.completed, notTaken: day.notTaken), classes: ["caption", "numeric"])
            let name = UI.label(LocaleTime.weekday(day.date.weekday), classes: ["caption"])
            UI.append(days, UI.box(true, spacing: 2, [bars.widget, counts, name]))
        }
    }

    /// The weekday's full name in the person's language (LC_TIME's DAY_1…DAY_7; 0 is Sunday).
    static func weekdayName(_ weekday: Int) -> String {
        String(cString: nl_langinfo(nl_item(Int(DAY_1) + (weekday % 7 + 7) % 7)))
    }
}

/// One day's two bars, drawn in the widget's own text colour (so they follow
/// light and dark): completed filled, not taken (skipped or missed) outlined.
private final class DayBars {
    let widget: Widget
    let completed: Int, notTaken: Int, most: Int

    init(completed: Int, notTaken: Int, most: Int) {
        self.completed = completed
        self.notTaken = notTaken
        self.most = most
        widget = icare_drawing_area_image()!
        let area = UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GtkDrawingArea.self)
        gtk_drawing_area_set_content_width(area, 26)
        gtk_drawing_area_set_content_height(area, 64)
        gtk_widget_set_halign(widget, GTK_ALIGN_CENTER)
        let draw: GtkDrawingAreaDrawFunc = { area, cr, width, height, data in
            let me = Unmanaged<DayBars>.fromOpaque(data!).takeUnretainedValue()
            var colour = GdkRGBA()
            gtk_style_context_get_color(gtk_widget_get_style_context(icare_widget(gp(area))), &colour)
            cairo_set_source_rgba(cr, Double(colour.red), Double(colour.green), Double(colour.blue), Double(colour.alpha))
            let w = Double(width), h = Double(height) - 1
            let bar = (w - 4) / 2
            // Read in the language's direction, as the days are (GTK mirrors the row of days for Arabic):
            // completed first, at the start of the line.
            let rtl = gtk_widget_get_direction(icare_widget(gp(area))) == GTK_TEXT_DIR_RTL
            let (first, second) = rtl ? (w - bar, 0.0) : (0.0, w - bar)
            func top(_ n: Int) -> Double { n == 0 ? h - 1 : h - max(2, h * Double(n) / Double(me.most)) }
            // Completed: a filled bar (a hairline when none).
            cairo_rectangle(cr, first, top(me.completed), bar, h - top(me.completed))
            cairo_fill(cr)
            // Not taken: an outline beside it.
            cairo_set_line_width(cr, 1.5)
            let t = top(me.notTaken)
            cairo_rectangle(cr, second + 0.75, t + 0.75, bar - 1.5, max(0.5, h - t - 0.75))
            cairo_stroke(cr)
        }
        // Released with the drawing area.
        let destroy: GDestroyNotify = { data in Unmanaged<DayBars>.fromOpaque(data!).release() }
        gtk_drawing_area_set_draw_func(area, draw, Unmanaged.passRetained(self).toOpaque(), destroy)
    }
}
