import CAdwaita
import SystemdKit
import ReminderClient
import Localization

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

    init() {
        application = adw_application_new(ICareApp.id, G_APPLICATION_NON_UNIQUE)
        Signals.connect(gp(application), "activate") { [unowned self] in self.activate() }
        addAction("preferences") { [unowned self] in self.openPreferences() }
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

    func toast(_ text: String) {
        guard let toasts else { return }
        adw_toast_overlay_add_toast(icare_adw_toast_overlay(gp(toasts)), adw_toast_new(text))
    }
}
