import CAdwaita

// Small helpers over GTK's C interface: pointers as gpointer, signals to Swift
// closures (the closure travels as the signal's user data, retained until the
// object drops the handler), one-shot timers, and widget shortcuts.

/// Any GObject pointer as GLib's `gpointer`.
@inline(__always) func gp<T>(_ p: UnsafeMutablePointer<T>?) -> gpointer? { UnsafeMutableRawPointer(p) }
@inline(__always) func gp(_ p: OpaquePointer?) -> gpointer? { UnsafeMutableRawPointer(p) }

typealias Widget = UnsafeMutablePointer<GtkWidget>

/// A Swift closure kept alive as a signal's (or a timer's) user data.
final class Action {
    let run: () -> Void
    init(_ run: @escaping () -> Void) { self.run = run }
    var retained: gpointer { Unmanaged.passRetained(self).toOpaque() }
    static func from(_ data: gpointer?) -> Action { Unmanaged<Action>.fromOpaque(data!).takeUnretainedValue() }
}

private let releaseAction: GClosureNotify = { data, _ in
    guard let data else { return }
    Unmanaged<Action>.fromOpaque(data).release()
}

enum Signals {
    /// A signal whose handler takes the instance and the user data ("clicked", "value-changed", "activate").
    @discardableResult
    static func connect(_ object: gpointer?, _ signal: String, _ action: @escaping () -> Void) -> gulong {
        let handler: @convention(c) (gpointer?, gpointer?) -> Void = { _, data in Action.from(data).run() }
        return g_signal_connect_data(object, signal, unsafeBitCast(handler, to: GCallback.self), Action(action).retained,
                                     releaseAction, GConnectFlags(rawValue: 0))
    }

    /// A signal with one argument before the user data, which the handler ignores (a GAction's "activate" and its parameter).
    @discardableResult
    static func connectWithArgument(_ object: gpointer?, _ signal: String, _ action: @escaping () -> Void) -> gulong {
        let handler: @convention(c) (gpointer?, gpointer?, gpointer?) -> Void = { _, _, data in Action.from(data).run() }
        return g_signal_connect_data(object, signal, unsafeBitCast(handler, to: GCallback.self), Action(action).retained,
                                     releaseAction, GConnectFlags(rawValue: 0))
    }

    /// A signal with one argument before the user data ("notify::active" and its GParamSpec).
    @discardableResult
    static func connectNotify(_ object: gpointer?, _ property: String, _ action: @escaping () -> Void) -> gulong {
        let handler: @convention(c) (gpointer?, gpointer?, gpointer?) -> Void = { _, _, data in Action.from(data).run() }
        return g_signal_connect_data(object, "notify::" + property, unsafeBitCast(handler, to: GCallback.self),
                                     Action(action).retained, releaseAction, GConnectFlags(rawValue: 0))
    }
}

/// A one-shot GLib timer at a wall-clock time, re-armed by `schedule`.
final class OneShotTimer {
    private var id: guint = 0
    private let action: Action

    init(_ action: @escaping () -> Void) { self.action = Action(action) }

    /// Fires once, `delayMs` from now (replacing a timer already set).
    func schedule(inMs delayMs: Int64) {
        cancel()
        let fire: GSourceFunc = { data in
            let timer = Unmanaged<OneShotTimer>.fromOpaque(data!).takeUnretainedValue()
            timer.id = 0
            timer.action.run()
            return 0  // G_SOURCE_REMOVE
        }
        id = g_timeout_add_full(G_PRIORITY_DEFAULT, guint(max(0, min(delayMs, Int64(Int32.max)))), fire,
                                Unmanaged.passUnretained(self).toOpaque(), nil)
    }

    func cancel() {
        if id != 0 { g_source_remove(id) }
        id = 0
    }

    deinit { cancel() }
}

enum UI {
    static func label(_ text: String = "", classes: [String] = [], wrap: Bool = false) -> Widget {
        let l = gtk_label_new(text)!
        for c in classes { gtk_widget_add_css_class(l, c) }
        if wrap {
            gtk_label_set_wrap(icare_label(gp(l)), 1)
            gtk_label_set_justify(icare_label(gp(l)), GTK_JUSTIFY_CENTER)
        }
        return l
    }

    static func setText(_ label: Widget, _ text: String) {
        let l = icare_label(gp(label))
        if String(cString: gtk_label_get_label(l)) != text { gtk_label_set_label(l, text) }
    }

    static func box(_ vertical: Bool, spacing: Int32, _ children: [Widget] = []) -> Widget {
        let b = gtk_box_new(vertical ? GTK_ORIENTATION_VERTICAL : GTK_ORIENTATION_HORIZONTAL, spacing)!
        for c in children { gtk_box_append(icare_box(gp(b)), c) }
        return b
    }

    static func append(_ box: Widget, _ child: Widget) { gtk_box_append(icare_box(gp(box)), child) }

    /// A button with words on it; its name for screen readers is those words.
    static func button(_ text: String, classes: [String] = [], _ action: @escaping () -> Void) -> Widget {
        let b = gtk_button_new_with_label(text)!
        for c in classes { gtk_widget_add_css_class(b, c) }
        Signals.connect(gp(b), "clicked", action)
        return b
    }

    /// A button with an icon, named for screen readers and with the same words as its tooltip.
    static func iconButton(_ icon: String, name: String, _ action: @escaping () -> Void) -> Widget {
        let b = gtk_button_new_from_icon_name(icon)!
        gtk_widget_set_tooltip_text(b, name)
        icare_accessible_label(gp(b), name)
        Signals.connect(gp(b), "clicked", action)
        return b
    }

    static func show(_ w: Widget, _ visible: Bool) {
        if (gtk_widget_get_visible(w) != 0) != visible { gtk_widget_set_visible(w, visible ? 1 : 0) }
    }

    static func margins(_ w: Widget, _ m: Int32) {
        gtk_widget_set_margin_top(w, m); gtk_widget_set_margin_bottom(w, m)
        gtk_widget_set_margin_start(w, m); gtk_widget_set_margin_end(w, m)
    }

    /// A window over the main one: kept above it, closed with it, with its title and first size.
    static func overParent(_ window: Widget, _ parent: Widget, title: String, width: Int32, height: Int32, modal: Bool) {
        let w = icare_window(gp(window))
        gtk_window_set_transient_for(w, icare_window(gp(parent)))
        gtk_window_set_destroy_with_parent(w, 1)
        gtk_window_set_modal(w, modal ? 1 : 0)
        gtk_window_set_title(w, title)
        gtk_window_set_default_size(w, width, height)
    }

    /// Removes every child of a box.
    static func clear(_ box: Widget) {
        while let child = gtk_widget_get_first_child(box) { gtk_box_remove(icare_box(gp(box)), child) }
    }
}
