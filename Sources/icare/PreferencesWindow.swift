import CAdwaita
import ReminderCore
import ReminderClient
import Localization

/// Every setting of the service, with its own ranges and words, each change
/// written through D-Bus (`Properties.Set`, as `icarectl set` does: the
/// service checks it and writes the config file). Shows the config file's
/// problems and GNOME's own eyesight breaks where they matter.
final class PreferencesWindow {
    let model: AppModel
    let window: Widget
    private let schedule: ScheduleRows
    private var snooze: SpinRow!
    private var weekdays, sound, panelRing, phone, fullScreen: SwitchRow!
    private var dnd, busy: ChoiceRow!
    private let problems: Widget
    private let gnome: Widget
    private let desktop = DesktopPage()

    init(model: AppModel, parent: Widget, closed: @escaping () -> Void) {
        self.model = model
        schedule = ScheduleRows(model: model)
        window = adw_preferences_window_new()!
        problems = adw_preferences_group_new()!
        gnome = adw_preferences_group_new()!
        UI.overParent(window, parent, title: PrefTexts.title, width: 520, height: 720, modal: false)
        adw_preferences_window_set_search_enabled(icare_adw_preferences_window(gp(window)), 0)
        Signals.connect(gp(window), "destroy", closed)
        build()
        update()
    }

    func present() { gtk_window_present(icare_window(gp(window))) }

    /// Turns to the page "This desktop".
    func showDesktopPage() {
        adw_preferences_window_set_visible_page(icare_adw_preferences_window(gp(window)), icare_adw_preferences_page(gp(desktop.page)))
    }

    private func group(_ title: String, _ rows: [Widget], in page: Widget) {
        let g = adw_preferences_group_new()!
        adw_preferences_group_set_title(icare_adw_preferences_group(gp(g)), title)
        for r in rows { adw_preferences_group_add(icare_adw_preferences_group(gp(g)), r) }
        adw_preferences_page_add(icare_adw_preferences_page(gp(page)), icare_adw_preferences_group(gp(g)))
    }

    private func build() {
        let page = adw_preferences_page_new()!
        // Two pages, so a switcher shows their names: the settings, and what iCare can see (DesktopPage).
        adw_preferences_page_set_title(icare_adw_preferences_page(gp(page)), PrefTexts.settingsPage)
        adw_preferences_page_set_icon_name(icare_adw_preferences_page(gp(page)), "preferences-system-symbolic")
        let m = model
        snooze = SpinRow(title: PrefTexts.snooze, subtitle: PrefTexts.minutesRange(1, 30), range: 1...30, step: 1) {
            m.set(.snoozeDuration, .uint(UInt32($0) * 60))
        }
        group(PrefTexts.breaks, [schedule.interval.row, schedule.breakLength.row, snooze.row], in: page)

        weekdays = SwitchRow(title: PrefTexts.weekdaysOnly, subtitle: PrefTexts.weekdaysHint) { m.set(.weekdaysOnly, .bool($0)) }
        group(PrefTexts.when, schedule.hoursRows + [weekdays.row], in: page)

        sound = SwitchRow(title: PrefTexts.sound, subtitle: PrefTexts.soundHint) { m.set(.sound, .bool($0)) }
        panelRing = SwitchRow(title: PrefTexts.panelRing, subtitle: PrefTexts.panelRingHint) { m.set(.statusItem, .bool($0)) }
        phone = SwitchRow(title: PrefTexts.phone, subtitle: PrefTexts.phoneHint([])) { m.set(.phoneReminders, .bool($0)) }
        group(PrefTexts.reminders, [sound.row, panelRing.row, phone.row], in: page)

        dnd = ChoiceRow(title: PrefTexts.dnd, choices: DndPolicy.allCases.map { ($0.rawValue, PrefTexts.word($0.rawValue)) },
                        explain: PrefTexts.policy) { m.set(.dndPolicy, .string($0)) }
        busy = ChoiceRow(title: PrefTexts.busy, choices: BusyPolicy.allCases.map { ($0.rawValue, PrefTexts.word($0.rawValue)) },
                         explain: PrefTexts.policy) { m.set(.busyPolicy, .string($0)) }
        fullScreen = SwitchRow(title: PrefTexts.fullScreen, subtitle: PrefTexts.fullScreenHint) { m.set(.fullScreenReminders, .bool($0)) }
        group(PrefTexts.interruptions, [dnd.row, busy.row, fullScreen.row], in: page)

        adw_preferences_group_set_title(icare_adw_preferences_group(gp(gnome)), PrefTexts.gnomeTitle)
        adw_preferences_group_set_description(icare_adw_preferences_group(gp(gnome)), HomeTexts.desktopEyeBreaks)
        adw_preferences_group_set_title(icare_adw_preferences_group(gp(problems)), PrefTexts.problemsTitle)
        for g in [gnome, problems] {
            adw_preferences_page_add(icare_adw_preferences_page(gp(page)), icare_adw_preferences_group(gp(g)))
        }
        adw_preferences_window_add(icare_adw_preferences_window(gp(window)), icare_adw_preferences_page(gp(page)))
        adw_preferences_window_add(icare_adw_preferences_window(gp(window)), icare_adw_preferences_page(gp(desktop.page)))
    }

    /// Shows the service's settings (after a change from anywhere).
    func update() {
        guard let s = model.status else { return }
        func number(_ k: SettingKey) -> UInt32? { if case .uint(let v)? = s.settings[k] { return v }; return nil }
        func flag(_ k: SettingKey) -> Bool? { if case .bool(let v)? = s.settings[k] { return v }; return nil }
        func word(_ k: SettingKey) -> String? { if case .string(let v)? = s.settings[k] { return v }; return nil }
        schedule.update(s)
        if let v = number(.snoozeDuration) { snooze.set(Double(max(60, v) / 60)) }
        if let v = flag(.weekdaysOnly) { weekdays.set(v) }
        if let v = flag(.sound) { sound.set(v) }
        if let v = flag(.statusItem) { panelRing.set(v) }
        if let v = flag(.phoneReminders) { phone.set(v) }
        phone.setSubtitle(PrefTexts.phoneHint(s.phones))
        if let v = word(.dndPolicy) { dnd.set(v) }
        if let v = word(.busyPolicy) { busy.set(v) }
        if let v = flag(.fullScreenReminders) { fullScreen.set(v) }
        gtk_widget_set_visible(gnome, s.desktopEyeBreaks ? 1 : 0)
        adw_preferences_group_set_description(icare_adw_preferences_group(gp(problems)),
                                              ([PrefTexts.problemsHint] + s.configProblems).joined(separator: "\n"))
        gtk_widget_set_visible(problems, s.configProblems.isEmpty ? 0 : 1)
        desktop.update(s)
    }
}
