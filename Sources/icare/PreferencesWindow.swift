import CAdwaita

/// Placeholder until the preferences are written.
final class PreferencesWindow {
    init(model: AppModel, parent: Widget, closed: @escaping () -> Void) {}
    func present() {}
    func update() {}
}
