import CAdwaita
import ReminderCore
import ReminderClient

/// The schedule's rows, shared by the preferences and the welcome: how often,
/// how long, and the active hours (a switch and two times of day). Each change
/// is written to the service; `update` shows the service's values.
final class ScheduleRows {
    let model: AppModel
    private(set) var interval, breakLength: SpinRow!
    private(set) var activeHours: SwitchRow!
    private(set) var from, to: SpinRow!

    init(model: AppModel) {
        self.model = model
        let m = model
        interval = SpinRow(title: PrefTexts.interval, subtitle: PrefTexts.minutesRange(15, 45), range: 15...45, step: 1) {
            m.set(.interval, .uint(UInt32($0) * 60))
        }
        breakLength = SpinRow(title: PrefTexts.breakLength, subtitle: PrefTexts.secondsRange(10, 30), range: 10...30, step: 1) {
            m.set(.breakDuration, .uint(UInt32($0)))
        }
        activeHours = SwitchRow(title: PrefTexts.activeHours, subtitle: PrefTexts.activeHoursHint) { [unowned self] _ in self.writeActiveHours() }
        from = SpinRow(title: PrefTexts.from, subtitle: "", range: 0...1439, step: 15) { [unowned self] _ in self.writeActiveHours() }
        to = SpinRow(title: PrefTexts.to, subtitle: "", range: 0...1439, step: 15) { [unowned self] _ in self.writeActiveHours() }
        from.showAsTimeOfDay()
        to.showAsTimeOfDay()
        from.set(9 * 60)
        to.set(17 * 60 + 30)
    }

    /// The rows of the active hours: the switch, then the two times.
    var hoursRows: [Widget] { [activeHours.row, from.row, to.row] }

    /// `HH:MM-HH:MM` from the two times, or "" (always) when the switch is off.
    private func writeActiveHours() {
        let f = from.minutes, t = to.minutes
        from.enable(activeHours.isOn)
        to.enable(activeHours.isOn)
        guard activeHours.isOn else { model.set(.activeHours, .string("")); return }
        guard f != t else { return }  // the service refuses an empty span; wait for the other end
        model.set(.activeHours, .string(PrefTexts.time(f) + "-" + PrefTexts.time(t)))
    }

    /// Shows the service's values (after a change from anywhere).
    func update(_ s: ServiceStatus) {
        if case .uint(let v)? = s.settings[.interval] { interval.set(Double(v / 60)) }
        if case .uint(let v)? = s.settings[.breakDuration] { breakLength.set(Double(v)) }
        if case .string(let v)? = s.settings[.activeHours] {
            activeHours.set(!v.isEmpty)
            if let hours = ActiveHours(v) {
                from.set(Double(hours.start.hour * 60 + hours.start.minute))
                to.set(Double(hours.end.hour * 60 + hours.end.minute))
            }
            from.enable(!v.isEmpty)
            to.enable(!v.isEmpty)
        }
    }
}

extension SpinRow {
    var minutes: Int { Int(gtk_spin_button_get_value(icare_spin(gp(spin))).rounded()) }
    func enable(_ on: Bool) { gtk_widget_set_sensitive(row, on ? 1 : 0) }
}
