import CAdwaita
import SystemdKit
import ReminderClient
import Localization
import FileKit
import ICareFiles
import Autostart

/// The application: one instance per session (`WindowName`: a second launch
/// only asks the first to show its window), the service's sd-event loop run
/// inside GLib's main loop, and the window. Closing the window ends the
/// process; icared is the one that stays.
final class ICareApp {
    /// iCare's one id: the desktop entry's, and so the window's (see WindowName).
    static let id = "org.icare.Reminder"
    let application: UnsafeMutablePointer<AdwApplication>
    private var loop: EventLoop?
    private var model: AppModel?
    private var window: Widget?
    private var home: HomeView?
    private var toasts: Widget?
    private var preferences: PreferencesWindow?
    private var ringOffer: ShellRingOffer?
    private var welcome: WelcomeWindow?
    /// Whether the first answer of the service was seen (the welcome is due then, once per person).
    private var welcomeChecked = false
    /// The Background portal's request while it waits for an answer.
    private var background: BackgroundRequest?

    init() {
        application = adw_application_new(ICareApp.id, G_APPLICATION_NON_UNIQUE)
        Signals.connect(gp(application), "activate") { [unowned self] in self.activate() }
        addAction("preferences") { [unowned self] in self.openPreferences() }
        addAction("welcome") { [unowned self] in self.openWelcome() }
        // The ring's "iCare cannot see everything here": the preferences on their page "This desktop".
        addAction("desktop") { [unowned self] in
            self.openPreferences()
            self.preferences?.showDesktopPage()
        }
        addAction("start-at-login") { [unowned self] in self.askToStartAtLogin() }
    }

    /// An action of the application (`app.NAME`, and over D-Bus org.freedesktop.Application.ActivateAction,
    /// as iCare's GNOME Shell extension calls `preferences`).
    private func addAction(_ name: String, _ run: @escaping () -> Void) {
        let action = g_simple_action_new(name, nil)
        Signals.connectWithArgument(gp(action), "activate", run)
        g_action_map_add_action(OpaquePointer(gp(application)), action)
        g_object_unref(gp(action))
    }

    /// The `preferences` action: the window (made when the app has none yet), then the preferences over it.
    private func openPreferences() {
        activate()
        showPreferences()
    }

    /// Runs GLib's main loop until the window closes; the exit status.
    func run() -> Int32 {
        guard WindowName.claim(icare_g_application(gp(application))) else { return 0 }
        return g_application_run(icare_g_application(gp(application)), CommandLine.argc, CommandLine.unsafeArgv)
    }

    private func activate() {
        if let window {
            gtk_window_present(icare_window(gp(window)))
            return
        }
        BenchHook.mark("activate")
        let window = adw_application_window_new(icare_gtk_application(gp(application)))!
        self.window = window
        gtk_window_set_title(icare_window(gp(window)), HomeTexts.appName)
        gtk_window_set_default_size(icare_window(gp(window)), 440, 720)
        let overlay = adw_toast_overlay_new()!
        toasts = overlay
        do {
            let loop = try EventLoop()
            icare_attach_sd_event(loop.raw)
            self.loop = loop
            let model = try AppModel(loop: loop)
            self.model = model
            let home = HomeView(model: model)
            self.home = home
            model.onChange = { [unowned self] in
                BenchHook.serviceChanged()
                self.home?.update()
                self.preferences?.update()
                self.welcome?.update()
                self.welcomeOnFirstOpen()
            }
            model.onError = { [unowned self] sentence in self.toast(sentence) }
            adw_toast_overlay_set_child(icare_adw_toast_overlay(gp(overlay)), home.root)
            model.start()
        } catch {
            let page = adw_status_page_new()!
            adw_status_page_set_title(icare_adw_status_page(gp(page)), HomeTexts.notRunningTitle)
            adw_status_page_set_description(icare_adw_status_page(gp(page)), (error as? CLIError)?.message ?? "\(error)")
            adw_toast_overlay_set_child(icare_adw_toast_overlay(gp(overlay)), page)
        }
        let header = adw_header_bar_new()!
        let prefs = UI.iconButton("emblem-system-symbolic", name: HomeTexts.preferences) { [unowned self] in self.showPreferences() }
        adw_header_bar_pack_end(icare_adw_header_bar(gp(header)), prefs)
        gtk_widget_set_sensitive(prefs, model == nil ? 0 : 1)
        let menu = mainMenu()
        adw_header_bar_pack_end(icare_adw_header_bar(gp(header)), menu)
        gtk_widget_set_sensitive(menu, model == nil ? 0 : 1)
        let offer = ShellRingOffer()
        ringOffer = offer
        offer.onError = { [unowned self] sentence in self.toast(sentence) }
        let content = UI.box(true, spacing: 0, [header, offer.widget, overlay])
        gtk_widget_set_vexpand(overlay, 1)
        adw_application_window_set_content(icare_adw_application_window(gp(window)), content)
        gtk_window_present(icare_window(gp(window)))
        BenchHook.mark("presented")
        offer.start(g_application_get_dbus_connection(icare_g_application(gp(application))))
        BenchHook.watch(window)
    }

    private func showPreferences() {
        guard let model, let window else { return }
        if preferences == nil {
            preferences = PreferencesWindow(model: model, parent: window) { [unowned self] in self.preferences = nil }
        }
        preferences?.present()
    }

    /// The main menu: the welcome again, and the preferences.
    private func mainMenu() -> Widget {
        let items = g_menu_new()!
        g_menu_append(items, WelcomeTexts.menuItem, "app.welcome")
        g_menu_append(items, HomeTexts.preferences, "app.preferences")
        let button = gtk_menu_button_new()!
        gtk_menu_button_set_icon_name(icare_menu_button(gp(button)), "open-menu-symbolic")
        gtk_menu_button_set_menu_model(icare_menu_button(gp(button)), icare_menu_model(gp(items)))
        gtk_widget_set_tooltip_text(button, WelcomeTexts.menu)
        icare_accessible_label(gp(button), WelcomeTexts.menu)
        g_object_unref(gp(items))
        return button
    }

    /// The `welcome` action (the main menu's Welcome): the window, then the welcome over it.
    private func openWelcome() {
        activate()
        showWelcome()
    }

    private func showWelcome() {
        guard let model, let window else { return }
        if welcome == nil {
            let connection = g_application_get_dbus_connection(icare_g_application(gp(application)))
            let w = WelcomeWindow(model: model, parent: window, connection: connection) { [unowned self] in self.welcome = nil }
            w.onAllowLogin = { [unowned self] in self.askToStartAtLogin() }
            w.onError = { [unowned self] sentence in self.toast(sentence) }
            // The application's window: the desktop groups it with iCare's (its Wayland app_id is iCare's id).
            gtk_window_set_application(icare_window(gp(w.window)), icare_gtk_application(gp(application)))
            welcome = w
        }
        welcome?.present()
    }

    /// The welcome, once per person: the first time the service answers in a home where it was never
    /// shown (`welcome-seen` in the app's own state folder, ICareFiles' WelcomeSeen).
    private func welcomeOnFirstOpen() {
        guard !welcomeChecked, let status = model?.status, !status.isKeptElsewhere, let paths = try? XDGPaths.fromProcessEnvironment() else { return }
        welcomeChecked = true
        let seen = WelcomeSeen(paths: paths)
        guard !seen.seen else { return }
        showWelcome()
        do { try seen.record() } catch { toast("\(error)") }
    }

    /// The Background portal, asked from the welcome (the Flatpak; elsewhere systemd or the autostart entry
    /// starts icared). The answer goes to icared over the bus (`SetStartsAtLogin`), which keeps it.
    private func askToStartAtLogin() {
        guard let model, background == nil else { return }
        let request = BackgroundRequest(connection: model.feed.connection)
        background = request
        // TRANSLATORS: shown by the desktop when iCare, installed as a Flatpak, asks to start at login.
        let reason = tr("iCare starts when you log in, to remind you to rest your eyes.")
        request.ask(reason: reason) { [unowned self] outcome in
            self.background = nil
            let allowed: Bool
            switch outcome {
            case .allowed: allowed = true
            case .denied: allowed = false
            case .unavailable: self.toast(WelcomeTexts.couldNotAsk); return
            }
            model.call("SetStartsAtLogin", [.bool(allowed)])
        }
    }

    func toast(_ text: String) {
        guard let toasts else { return }
        adw_toast_overlay_add_toast(icare_adw_toast_overlay(gp(toasts)), adw_toast_new(text))
    }
}
