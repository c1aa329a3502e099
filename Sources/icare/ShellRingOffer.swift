import CAdwaita
import Glibc
import Localization

/// On GNOME, where iCare's Shell extension (`ring@icare.org`) is installed
/// but not enabled, a small row above the home view offers to turn the ring
/// in the top bar on. It asks GNOME Shell itself, over its
/// `org.gnome.Shell.Extensions` interface on /org/gnome/Shell: `GetExtensionInfo`
/// (an `a{sv}`, empty when the Shell knows no such extension; `enabled` b and
/// `state` d), `EnableExtension` (→ b), and follows `ExtensionStateChanged`
/// (s, a{sv}), so the row goes when the ring is turned on elsewhere too. All
/// calls are asynchronous (GIO, on the application's own bus connection);
/// without GNOME Shell nothing shows.
final class ShellRingOffer {
    static let uuid = "ring@icare.org"
    static let shell = "org.gnome.Shell", path = "/org/gnome/Shell", interface = "org.gnome.Shell.Extensions"
    let widget: Widget
    private let message = UI.label(wrap: true)
    private var button: Widget!
    private var connection: OpaquePointer?
    private var subscription: guint = 0
    private let cancellable = g_cancellable_new()
    private var retained: Unmanaged<ShellRingOffer>?

    init() {
        widget = UI.box(false, spacing: 12)
        gtk_widget_add_css_class(widget, "card")
        UI.margins(widget, 12)
        gtk_widget_set_margin_bottom(widget, 0)
        gtk_label_set_xalign(icare_label(gp(message)), 0)
        gtk_label_set_justify(icare_label(gp(message)), GTK_JUSTIFY_LEFT)
        gtk_widget_set_hexpand(message, 1)
        UI.setText(message, ShellRingTexts.offer)
        UI.margins(message, 12)
        button = UI.button(ShellRingTexts.turnOn, classes: ["suggested-action"]) { [unowned self] in self.enable() }
        gtk_widget_set_valign(button, GTK_ALIGN_CENTER)
        gtk_widget_set_margin_end(button, 12)
        UI.append(widget, message)
        UI.append(widget, button)
        UI.show(widget, false)
    }

    /// Starts asking (GNOME only): `connection` is the application's session-bus connection.
    func start(_ connection: OpaquePointer?) {
        guard let connection, Self.onGnome else { return }
        self.connection = connection
        // The callbacks hold this object until `stop`.
        retained = Unmanaged.passRetained(self)
        let me = retained!.toOpaque()
        let changed: GDBusSignalCallback = { _, _, _, _, _, _, data in
            Unmanaged<ShellRingOffer>.fromOpaque(data!).takeUnretainedValue().ask()
        }
        subscription = g_dbus_connection_signal_subscribe(connection, Self.shell, Self.interface, "ExtensionStateChanged",
                                                          Self.path, Self.uuid, G_DBUS_SIGNAL_FLAGS_NONE, changed, me, nil)
        ask()
    }

    func stop() {
        g_cancellable_cancel(cancellable)
        if let connection, subscription != 0 { g_dbus_connection_signal_unsubscribe(connection, subscription) }
        subscription = 0
        retained?.release()
        retained = nil
    }

    static var onGnome: Bool {
        let desktop = getenv("XDG_CURRENT_DESKTOP").map { String(cString: $0) } ?? ""
        return desktop.split(separator: ":").contains { $0.uppercased() == "GNOME" }
    }

    /// GetExtensionInfo, then shows or hides the row.
    private func ask() {
        call("GetExtensionInfo") { offer, reply in
            UI.show(offer.widget, reply.map(Self.offered) ?? false)
        }
    }

    /// Whether the Shell's answer says: installed, and not enabled.
    static func offered(_ info: OpaquePointer) -> Bool {
        let dict = g_variant_get_child_value(info, 0)!
        defer { g_variant_unref(dict) }
        guard g_variant_n_children(dict) > 0 else { return false }  // not installed
        if let enabled = g_variant_lookup_value(dict, "enabled", nil) {
            defer { g_variant_unref(enabled) }
            if g_variant_classify(enabled) == G_VARIANT_CLASS_BOOLEAN { return g_variant_get_boolean(enabled) == 0 }
        }
        // Before `enabled` (GNOME 45): state 1 is enabled (ACTIVE).
        guard let state = g_variant_lookup_value(dict, "state", nil) else { return false }
        defer { g_variant_unref(state) }
        return g_variant_classify(state) == G_VARIANT_CLASS_DOUBLE && g_variant_get_double(state) != 1
    }

    private func enable() {
        gtk_widget_set_sensitive(button, 0)
        call("EnableExtension") { offer, reply in
            gtk_widget_set_sensitive(offer.button, 1)
            if reply == nil { offer.onError?(ShellRingTexts.couldNotTurnOn) }
            offer.ask()
        }
    }

    /// Shown as a toast when turning the ring on failed.
    var onError: ((String) -> Void)?

    private final class Pending {
        let offer: ShellRingOffer
        let done: (ShellRingOffer, OpaquePointer?) -> Void
        init(_ offer: ShellRingOffer, _ done: @escaping (ShellRingOffer, OpaquePointer?) -> Void) { self.offer = offer; self.done = done }
    }

    /// `method(uuid)` on the Shell; `done` gets the reply (nil on an error), never after `stop`.
    private func call(_ method: String, _ done: @escaping (ShellRingOffer, OpaquePointer?) -> Void) {
        guard let connection else { return }
        var argument = g_variant_new_string(Self.uuid)
        let arguments = g_variant_new_tuple(&argument, 1)
        let finished: GAsyncReadyCallback = { source, result, data in
            let pending = Unmanaged<Pending>.fromOpaque(data!).takeRetainedValue()
            var error: UnsafeMutablePointer<GError>?
            let reply = g_dbus_connection_call_finish(OpaquePointer(source), result, &error)
            let cancelled = error.map { g_error_matches($0, g_io_error_quark(), gint(G_IO_ERROR_CANCELLED.rawValue)) != 0 } ?? false
            if let error { g_error_free(error) }
            if !cancelled { pending.done(pending.offer, reply) }
            if let reply { g_variant_unref(reply) }
        }
        g_dbus_connection_call(connection, Self.shell, Self.path, Self.interface, method, arguments, nil,
                               G_DBUS_CALL_FLAGS_NO_AUTO_START, -1, cancellable, finished,
                               Unmanaged.passRetained(Pending(self, done)).toOpaque())
    }
}

/// The offer's words.
enum ShellRingTexts {
    static var offer: String { tr("Show iCare’s ring in the top bar?") }
    // TRANSLATORS: the button that enables iCare's GNOME Shell extension.
    static var turnOn: String { tr("Turn On") }
    static var couldNotTurnOn: String { tr("The ring could not be turned on. Try again in GNOME’s Extensions app.") }
}
