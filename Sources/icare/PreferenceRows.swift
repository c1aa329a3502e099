import CAdwaita
import Glibc

/// The rows of the preferences window: a spin button, a switch or a choice of
/// radio buttons beside a title, each control named for screen readers with
/// the row's title. `set` shows a value from the service without writing it back.
final class SpinRow {
    let row: Widget
    let spin: Widget
    private var updating = false

    init(title: String, subtitle: String, range: ClosedRange<Double>, step: Double, changed: @escaping (Double) -> Void) {
        row = adw_action_row_new()!
        adw_preferences_row_set_title(icare_adw_preferences_row(gp(row)), title)
        adw_action_row_set_subtitle(icare_adw_action_row(gp(row)), subtitle)
        spin = gtk_spin_button_new_with_range(range.lowerBound, range.upperBound, step)!
        gtk_widget_set_valign(spin, GTK_ALIGN_CENTER)
        gtk_spin_button_set_numeric(icare_spin(gp(spin)), 0)
        adw_action_row_add_suffix(icare_adw_action_row(gp(row)), spin)
        adw_action_row_set_activatable_widget(icare_adw_action_row(gp(row)), spin)
        Signals.connect(gp(spin), "value-changed") { [unowned self] in
            guard !self.updating else { return }
            changed(gtk_spin_button_get_value(icare_spin(gp(self.spin))))
        }
    }

    func set(_ value: Double) {
        guard gtk_spin_button_get_value(icare_spin(gp(spin))) != value else { return }
        updating = true
        gtk_spin_button_set_value(icare_spin(gp(spin)), value)
        updating = false
    }

    /// Shows the value as a time of day (`09:30`) and reads one typed so; the value is minutes since midnight.
    func showAsTimeOfDay() {
        let output: @convention(c) (gpointer?, gpointer?) -> gboolean = { spin, _ in
            gtk_editable_set_text(icare_editable(spin), PrefTexts.time(Int(gtk_spin_button_get_value(icare_spin(spin)).rounded())))
            return 1
        }
        let input: @convention(c) (gpointer?, UnsafeMutablePointer<Double>?, gpointer?) -> gint = { spin, value, _ in
            let text = String(cString: gtk_editable_get_text(icare_editable(spin)))
            let parts = text.split(separator: ":").map { Int($0.filter { $0 != " " }) }
            guard parts.count == 2, let h = parts[0], let m = parts[1], (0..<24).contains(h), (0..<60).contains(m) else {
                return -1  // GTK_INPUT_ERROR
            }
            value?.pointee = Double(h * 60 + m)
            return 1
        }
        g_signal_connect_data(gp(spin), "output", unsafeBitCast(output, to: GCallback.self), nil, nil, GConnectFlags(rawValue: 0))
        g_signal_connect_data(gp(spin), "input", unsafeBitCast(input, to: GCallback.self), nil, nil, GConnectFlags(rawValue: 0))
        gtk_editable_set_width_chars(icare_editable(gp(spin)), 5)
    }
}

final class SwitchRow {
    let row: Widget
    let toggle: Widget
    private var updating = false

    init(title: String, subtitle: String = "", changed: @escaping (Bool) -> Void) {
        row = adw_action_row_new()!
        adw_preferences_row_set_title(icare_adw_preferences_row(gp(row)), title)
        if !subtitle.isEmpty { adw_action_row_set_subtitle(icare_adw_action_row(gp(row)), subtitle) }
        toggle = gtk_switch_new()!
        gtk_widget_set_valign(toggle, GTK_ALIGN_CENTER)
        adw_action_row_add_suffix(icare_adw_action_row(gp(row)), toggle)
        adw_action_row_set_activatable_widget(icare_adw_action_row(gp(row)), toggle)
        Signals.connectNotify(gp(toggle), "active") { [unowned self] in
            guard !self.updating else { return }
            changed(gtk_switch_get_active(icare_switch(gp(self.toggle))) != 0)
        }
    }

    var isOn: Bool { gtk_switch_get_active(icare_switch(gp(toggle))) != 0 }

    /// Words under the title that follow the service (the phones it can remind).
    func setSubtitle(_ text: String) {
        adw_action_row_set_subtitle(icare_adw_action_row(gp(row)), text)
    }

    func set(_ on: Bool) {
        guard isOn != on else { return }
        updating = true
        gtk_switch_set_active(icare_switch(gp(toggle)), on ? 1 : 0)
        updating = false
    }
}

/// A choice among a few words (a policy: the service's own words on linked
/// toggle buttons), what the chosen one does as the row's subtitle.
final class ChoiceRow {
    let row: Widget
    private var buttons: [(value: String, button: Widget)] = []
    private let explain: (String) -> String
    private var updating = false

    init(title: String, choices: [(value: String, label: String)], explain: @escaping (String) -> String,
         changed: @escaping (String) -> Void) {
        self.explain = explain
        row = adw_action_row_new()!
        adw_preferences_row_set_title(icare_adw_preferences_row(gp(row)), title)
        let box = UI.box(false, spacing: 0)
        gtk_widget_add_css_class(box, "linked")
        gtk_widget_set_valign(box, GTK_ALIGN_CENTER)
        var first: Widget?
        for choice in choices {
            let toggle = gtk_toggle_button_new_with_label(choice.label)!
            icare_accessible_description(gp(toggle), explain(choice.value))
            if let first { gtk_toggle_button_set_group(icare_toggle_button(gp(toggle)), icare_toggle_button(gp(first))) } else { first = toggle }
            UI.append(box, toggle)
            buttons.append((choice.value, toggle))
            let value = choice.value
            Signals.connect(gp(toggle), "toggled") { [unowned self] in
                guard gtk_toggle_button_get_active(icare_toggle_button(gp(toggle))) != 0 else { return }
                adw_action_row_set_subtitle(icare_adw_action_row(gp(self.row)), explain(value))
                if !self.updating { changed(value) }
            }
        }
        adw_action_row_add_suffix(icare_adw_action_row(gp(row)), box)
    }

    func set(_ value: String) {
        guard let b = buttons.first(where: { $0.value == value })?.button,
              gtk_toggle_button_get_active(icare_toggle_button(gp(b))) == 0 else { return }
        updating = true
        gtk_toggle_button_set_active(icare_toggle_button(gp(b)), 1)
        updating = false
    }
}
