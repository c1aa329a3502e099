import CAdwaita
import DesktopWatch
import ReminderClient
import Localization

/// The welcome (docs/using.md, "The app"; docs/architecture.md, "The welcome"):
/// a few pages in a carousel over the main window, gone through with Back and
/// Next (or a swipe), their dots below. The rule; the schedule, changeable
/// right there (the preferences' own rows); the ring (on GNOME the Shell
/// extension turned on with one click); the phone, only while one is linked;
/// starting at login (in the Flatpak the Background portal is asked from here);
/// and what iCare cannot see on this desktop. Everything follows the service
/// live.
final class WelcomeWindow {
    let window: Widget
    private let model: AppModel
    private let carousel: Widget
    private let back: Widget
    private let next: Widget
    private let schedule: ScheduleRows
    private let panelRing: SwitchRow
    private let phone: SwitchRow
    private let ringPage: Widget, phonePage: Widget, loginPage: Widget, desktopPage: Widget
    private let allowLogin: Widget
    private let desktopRows: Widget
    private let ringOffer = ShellRingOffer()
    private var shownCapabilities: [ReportedCapability]?
    /// The page shown, or being scrolled to (Next pressed again during the animation goes on from there).
    private var current = 0
    /// The page Back or Next scrolls to, until the carousel arrives there (a swipe has none).
    private var target: Int?
    /// Called when the person asks to start at login (the Flatpak's Background portal).
    var onAllowLogin: () -> Void = {}
    /// Called with a sentence when something asked for here failed (turning the Shell's ring on).
    var onError: (String) -> Void = { _ in }

    init(model: AppModel, parent: Widget, connection: OpaquePointer?, closed: @escaping () -> Void) {
        self.model = model
        let m = model
        window = adw_window_new()!
        UI.overParent(window, parent, title: WelcomeTexts.title, width: 480, height: 620, modal: true)
        schedule = ScheduleRows(model: model)
        panelRing = SwitchRow(title: PrefTexts.panelRing, subtitle: PrefTexts.panelRingHint) { m.set(.statusItem, .bool($0)) }
        phone = SwitchRow(title: PrefTexts.phone, subtitle: PrefTexts.phoneHint([])) { m.set(.phoneReminders, .bool($0)) }
        allowLogin = UI.button(WelcomeTexts.allowLogin, classes: ["suggested-action", "pill"]) {}
        desktopRows = Self.list([])
        carousel = adw_carousel_new()!
        back = UI.button(WelcomeTexts.back) {}
        next = UI.button(WelcomeTexts.next, classes: ["suggested-action"]) {}

        let rule = Self.page(icon: ICareApp.id, title: WelcomeTexts.title, words: WelcomeTexts.rule, child: nil)
        let hours = Self.list([schedule.interval.row, schedule.breakLength.row] + schedule.hoursRows)
        let when = Self.page(icon: "alarm-symbolic", title: WelcomeTexts.scheduleTitle, words: WelcomeTexts.scheduleWords, child: hours)
        gtk_widget_set_visible(ringOffer.widget, 0)
        ringPage = Self.page(icon: "emblem-synchronizing-symbolic", title: WelcomeTexts.ringTitle, words: "",
                             child: UI.box(true, spacing: 12, [Self.list([panelRing.row]), ringOffer.widget]))
        // Kept while out of the carousel (a page removed from it would otherwise be freed).
        phonePage = Self.page(icon: "phone-symbolic", title: WelcomeTexts.phoneTitle, words: "", child: Self.list([phone.row]))
        g_object_ref_sink(gp(phonePage))
        gtk_widget_set_halign(allowLogin, GTK_ALIGN_CENTER)
        loginPage = Self.page(icon: "system-run-symbolic", title: WelcomeTexts.loginTitle, words: "", child: allowLogin)
        desktopPage = Self.page(icon: "computer-symbolic", title: DesktopPage.heading, words: "", child: desktopRows)
        for page in [rule, when, ringPage, loginPage, desktopPage] { adw_carousel_append(icare_adw_carousel(gp(carousel)), page) }
        gtk_widget_set_vexpand(carousel, 1)

        let dots = adw_carousel_indicator_dots_new()!
        adw_carousel_indicator_dots_set_carousel(icare_adw_carousel_indicator_dots(gp(dots)), icare_adw_carousel(gp(carousel)))
        let header = adw_header_bar_new()!
        adw_header_bar_pack_start(icare_adw_header_bar(gp(header)), back)
        adw_header_bar_pack_end(icare_adw_header_bar(gp(header)), next)
        adw_window_set_content(icare_adw_window(gp(window)), UI.box(true, spacing: 0, [header, carousel, dots]))

        Signals.connect(gp(back), "clicked") { [unowned self] in self.step(-1) }
        Signals.connect(gp(next), "clicked") { [unowned self] in self.step(1) }
        Signals.connect(gp(allowLogin), "clicked") { [unowned self] in self.onAllowLogin() }
        Signals.connectWithArgument(gp(carousel), "page-changed") { [unowned self] in
            // A page passed on the way to the target is not where the person is going.
            if let target = self.target {
                guard target == self.position else { return }
                self.target = nil
            }
            self.current = self.position
            self.showButtons()
        }
        Signals.connect(gp(window), "destroy") { [unowned self] in
            self.ringOffer.stop()
            g_object_unref(gp(self.phonePage))
            closed()
        }
        ringOffer.onError = { [unowned self] sentence in self.onError(sentence) }
        ringOffer.start(connection)
        closeOnEscape()
        showButtons()
        update()
    }

    /// Shows the welcome with the keyboard on Next (Return goes on, page by page; Escape closes it, as
    /// libadwaita's dialogs do).
    func present() {
        gtk_window_present(icare_window(gp(window)))
        gtk_widget_grab_focus(next)
    }

    /// Escape closes the window (GtkWindow's own `window.close` action).
    private func closeOnEscape() {
        let controller = gtk_shortcut_controller_new()!
        gtk_shortcut_controller_add_shortcut(icare_shortcut_controller(gp(controller)),
                                             gtk_shortcut_new(gtk_shortcut_trigger_parse_string("Escape"), gtk_named_action_new("window.close")))
        gtk_widget_add_controller(window, controller)
    }

    /// Where the phone's page goes: after the rule, the schedule and the ring.
    private static let phoneIndex = 3

    private var position: Int { Int(adw_carousel_get_position(icare_adw_carousel(gp(carousel))).rounded()) }
    private var pages: Int { Int(adw_carousel_get_n_pages(icare_adw_carousel(gp(carousel)))) }

    /// Back or Next; Next on the last page closes the welcome.
    private func step(_ by: Int) {
        let to = current + by
        guard to < pages else { gtk_window_destroy(icare_window(gp(window))); return }
        guard to >= 0, let page = adw_carousel_get_nth_page(icare_adw_carousel(gp(carousel)), guint(to)) else { return }
        if to == 0 { gtk_widget_grab_focus(next) }  // Back goes insensitive there: the focus goes on
        current = to
        target = to
        adw_carousel_scroll_to(icare_adw_carousel(gp(carousel)), page, 1)
        showButtons()
    }

    private func showButtons() {
        let at = current
        gtk_widget_set_sensitive(back, at > 0 ? 1 : 0)
        gtk_widget_set_opacity(back, at > 0 ? 1 : 0)
        gtk_button_set_label(icare_button(gp(next)), at >= pages - 1 ? WelcomeTexts.done : WelcomeTexts.next)
    }

    /// Shows the service's values and what it can see (after a change from anywhere).
    func update() {
        guard let s = model.status else { return }
        schedule.update(s)
        if case .bool(let v)? = s.settings[.statusItem] { panelRing.set(v) }
        if case .bool(let v)? = s.settings[.phoneReminders] { phone.set(v) }
        phone.setSubtitle(PrefTexts.phoneHint(s.phones))
        let words = { (name: String) in s.capabilities.first { $0.name == name }?.words ?? "" }
        Self.setWords(ringPage, words("ring"))
        Self.setWords(phonePage, s.sandboxLimits.contains("phone-commands") ? WelcomeTexts.phoneTapsOnly : WelcomeTexts.phoneWords)
        Self.setWords(loginPage, words("login"))
        gtk_widget_set_visible(allowLogin, Sandbox.isFlatpak && s.sandboxLimits.contains("autostart") ? 1 : 0)
        showPhonePage(!s.phones.isEmpty)
        showCapabilities(s)
    }

    /// The phone's page, only while a phone is linked (after the ring's page). The carousel keeps showing
    /// the page it showed, or the one before the phone's when that goes.
    private func showPhonePage(_ shown: Bool) {
        let c = icare_adw_carousel(gp(carousel))
        let there = gtk_widget_get_parent(phonePage) != nil
        guard shown != there else { return }
        if shown {
            adw_carousel_insert(c, phonePage, Int32(Self.phoneIndex))
            if current >= Self.phoneIndex { current += 1 }
        } else {
            adw_carousel_remove(c, phonePage)
            if current >= Self.phoneIndex { current -= 1 }
        }
        // A change of pages ends a scroll under way: go on to where the person was going.
        if target != nil { target = current }
        if let page = adw_carousel_get_nth_page(c, guint(current)) { adw_carousel_scroll_to(c, page, 0) }
        showButtons()
    }

    /// The capabilities that do not work here, a row each, or one sentence that all is well.
    private func showCapabilities(_ s: ServiceStatus) {
        let failing = s.capabilities.filter(\.fails)
        guard failing != shownCapabilities else { return }
        shownCapabilities = failing
        Self.setWords(desktopPage, failing.isEmpty ? WelcomeTexts.allWorks : WelcomeTexts.someMissing)
        while let row = gtk_widget_get_first_child(desktopRows) { gtk_list_box_remove(icare_list_box(gp(desktopRows)), row) }
        for c in failing { gtk_list_box_append(icare_list_box(gp(desktopRows)), DesktopPage.row(c)) }
        gtk_widget_set_visible(desktopRows, failing.isEmpty ? 0 : 1)
    }

    /// A page: a status page with an icon, a title, words and what can be done there.
    private static func page(icon: String, title: String, words: String, child: Widget?) -> Widget {
        let page = adw_status_page_new()!
        let p = icare_adw_status_page(gp(page))
        adw_status_page_set_icon_name(p, icon)
        adw_status_page_set_title(p, title)
        adw_status_page_set_description(p, words)
        if let child {
            gtk_widget_set_size_request(child, 360, -1)
            gtk_widget_set_halign(child, GTK_ALIGN_CENTER)
            adw_status_page_set_child(p, child)
        }
        gtk_widget_set_hexpand(page, 1)
        gtk_widget_set_vexpand(page, 1)
        return page
    }

    private static func setWords(_ page: Widget, _ words: String) {
        let p = icare_adw_status_page(gp(page))
        let now = adw_status_page_get_description(p).map { String(cString: $0) } ?? ""
        if now != words { adw_status_page_set_description(p, words) }
    }

    /// A boxed list of rows, as libadwaita's own pages show settings.
    private static func list(_ rows: [Widget]) -> Widget {
        let list = gtk_list_box_new()!
        gtk_list_box_set_selection_mode(icare_list_box(gp(list)), GTK_SELECTION_NONE)
        gtk_widget_add_css_class(list, "boxed-list")
        for r in rows { gtk_list_box_append(icare_list_box(gp(list)), r) }
        return list
    }
}
