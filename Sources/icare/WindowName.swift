import CAdwaita
import Glibc

/// One window per session, without taking iCare's id from icared.
///
/// iCare has one id, `org.icare.Reminder`: icared's bus name, the desktop
/// entry, the icon and the Flatpak. The app's GApplication carries that id
/// too, because GTK gives it to the window (the Wayland app_id, GTK's
/// application id on X11 and Wayland) and that is how GNOME Shell and KWin
/// match the window to its desktop entry. So the GApplication is non-unique,
/// never asking for the name icared owns, and the app owns a name beneath the
/// id, `org.icare.Reminder.Window`, on the same connection, where GLib
/// serves `org.freedesktop.Application` at `/org/icare/Reminder`. A second
/// launch finds the name taken and asks the first to show its window,
/// passing on its activation token, as GApplication itself would.
/// docs/architecture.md ("The app's id and its name") has the reasons.
enum WindowName {
    static let name = "org.icare.Reminder.Window"

    /// Registers `application` on the session bus and claims the name. True
    /// when this process is to show the window; false when an app already
    /// running was asked to show its own (this one then just exits). Without a
    /// session bus, or when the running one does not answer, this one goes on.
    static func claim(_ application: UnsafeMutablePointer<GApplication>) -> Bool {
        var error: UnsafeMutablePointer<GError>?
        guard g_application_register(application, nil, &error) != 0,
              let connection = g_application_get_dbus_connection(application) else {
            if let error { g_error_free(error) }
            return true
        }
        // DBUS_NAME_FLAG_DO_NOT_QUEUE (4): 1 (primary owner) or 3 (exists).
        let request = call(connection, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                           "RequestName", [g_variant_new_string(name), g_variant_new_uint32(4)], reply: "(u)")
        guard let request else { return true }
        defer { g_variant_unref(request) }
        let child = g_variant_get_child_value(request, 0)
        defer { g_variant_unref(child) }
        guard g_variant_get_uint32(child) == 3 else { return true }
        // The running app's GLib serves its interface at the path GLib derives from the id, as this one's does.
        let path = String(cString: g_application_get_dbus_object_path(application))
        guard let shown = call(connection, name, path, "org.freedesktop.Application", "Activate",
                               [platformData()], reply: "()") else {
            let line = "icare: another iCare window owns \(name) but did not answer; opening this one\n"
            _ = line.withCString { write(2, $0, strlen($0)) }
            return true
        }
        g_variant_unref(shown)
        return false
    }

    /// The launch's activation token (Wayland) or startup id (X11), so the
    /// running window may take the focus: `activation-token` and
    /// `desktop-startup-id`, as GTK's own remote activation sends them.
    private static func platformData() -> OpaquePointer {
        var entries: [OpaquePointer?] = []
        for (key, variable) in [("activation-token", "XDG_ACTIVATION_TOKEN"), ("desktop-startup-id", "DESKTOP_STARTUP_ID")] {
            guard let value = getenv(variable) else { continue }
            entries.append(g_variant_new_dict_entry(g_variant_new_string(key), g_variant_new_variant(g_variant_new_string(value))))
        }
        let type = g_variant_type_new("{sv}")
        defer { g_variant_type_free(type) }
        return entries.withUnsafeBufferPointer { g_variant_new_array(type, $0.baseAddress, gsize($0.count)) }
    }

    /// A synchronous call (before the main loop runs); nil on any error.
    private static func call(_ connection: OpaquePointer, _ destination: String, _ path: String, _ interface: String,
                             _ method: String, _ arguments: [OpaquePointer?], reply: String) -> OpaquePointer? {
        let parameters = arguments.withUnsafeBufferPointer { g_variant_new_tuple($0.baseAddress, gsize($0.count)) }
        let replyType = g_variant_type_new(reply)
        defer { g_variant_type_free(replyType) }
        var error: UnsafeMutablePointer<GError>?
        let result = g_dbus_connection_call_sync(connection, destination, path, interface, method, parameters, replyType,
                                                 G_DBUS_CALL_FLAGS_NO_AUTO_START, 5000, nil, &error)
        if let error { g_error_free(error) }
        return result
    }
}
