import Foundation

/// How `GnomeBannerShell` and `ShellExtensionRig` start their real GNOME Shell
/// (48.7 or 50.5) in a `DesktopRoot`, written once: the root, the GNOME
/// session, the shell's settings and `gnome-shell --headless`. What each then
/// waits for (Eval, the banners, iCare's indicator) stays with the test's type.
extension DesktopRootSession {
    /// The virtual monitor every test's shell draws on.
    public static let gnomeShellWidth = 1280, gnomeShellHeight = 800

    /// A new root of `release`, a GNOME session in it (`activatable` and `variables` more), the tests'
    /// `Eval` extension installed and enabled first when `eval`, `extensions` enabled, and the shell
    /// started headless with `arguments` more, its log in `gnome-shell.log`. With `accessibility`, the
    /// toolkit setting is on and the accessibility bus starts before the shell, so the shell joins it.
    /// `prepare` runs last before the shell starts. On any failure the root is stopped.
    public static func startGnomeShell(_ release: DesktopRoot.Release, activatable: [String] = [], variables: [String: String],
                                       eval: Bool, extensions: [String], accessibility: Bool, arguments: [String] = [],
                                       firstStart: Bool = false,
                                       prepare: (DesktopRootSession) throws -> Void = { _ in }) throws -> DesktopRootSession {
        let root = try DesktopRoot(release)
        do {
            let session = try gnome(root, activatable: activatable, variables: variables, firstStart: firstStart)
            if eval { try session.installEvalExtension() }
            try session.prepareGnomeShell(extensions: (eval ? [evalExtension] : []) + extensions, accessibility: accessibility)
            if accessibility { try session.startAccessibilityBus() }
            try prepare(session)
            try session.start(["gnome-shell", "--headless", "--wayland", "--no-x11",
                               "--virtual-monitor", "\(gnomeShellWidth)x\(gnomeShellHeight)"] + arguments, log: "gnome-shell.log")
            return session
        } catch {
            root.stop()
            throw error
        }
    }
}
