import DBusKit
import DesktopWatch

/// GNOME's do-not-disturb seen through iCare's Shell extension, for an
/// icared in the Flatpak sandbox: the sandbox cannot read the dconf database
/// (`DconfKeyWatcher`), but the extension runs in the Shell and serves
/// `org.gnome.desktop.notifications show-banners` as its `ShowBanners`
/// property (docs/flatpak.md). Without the extension GNOME's switch is unknown,
/// which the service says (`SandboxLimits`).
final class ShellBannersWatcher: DndWatcher {
    static let property = "ShowBanners"

    let source = DndSource.gnome
    let context: WatcherContext
    private let shell: ShellStateProperty

    init(context: WatcherContext) {
        self.context = context
        shell = ShellStateProperty(connection: context.connection, property: Self.property) { [weak context] in
            context?.problems.report(DndSource.gnome, .reply, $0)
        }
    }

    /// Whether the extension serves the switch now.
    private(set) var serving = false
    var onServing: ((Bool) -> Void)?

    func start() {
        shell.start { [weak self] reading in
            guard let self else { return }
            defer { self.looked() }
            switch reading {
            case .absent, .unreadable:
                self.setServing(false)
                self.report(.absent)
            case .value(let value):
                self.setServing(true)
                guard let shown = value.bool else {
                    self.problem(.signal, "\(Self.property) is not a 'b'")
                    return self.report(.present(dnd: false))
                }
                self.report(.present(dnd: !shown))
            }
        }
    }

    private func setServing(_ now: Bool) {
        guard now != serving else { return }
        serving = now
        onServing?(now)
    }
}
