import Foundation

/// A real GNOME Shell (48.7 in trixie, 50.5 in forky), headless, inside a
/// `DesktopRoot`, as the root's ordinary user: `gnome-shell --headless
/// --wayland --no-x11 --virtual-monitor 1280x800` (started as every root
/// suite's shell is, `DesktopRootSession.startGnomeShell`) on the session's private
/// buses (it aborts without *a* system bus: the empty private one does), with
/// dconf, the accessibility bus and the shell's notification proxy activatable,
/// and iCare's own activation file from the installed package. Settings
/// (accessibility on, no hot corners, no blanking or lock) are written with the
/// root's `dconf` before the shell starts, as for GNOME 43
/// (`HeadlessGnomeShell`). `stop()` ends the root with all of it.
public final class RootGnomeShell: @unchecked Sendable {
    public let root: DesktopRoot
    public let session: DesktopRootSession

    /// Starts the root and the shell; `variables` go into the session (e.g. `ICARE_TIME_SCALE`, which an
    /// activated icared inherits from the bus).
    public init(_ release: DesktopRoot.Release, variables: [String: String] = [:]) throws {
        session = try DesktopRootSession.startGnomeShell(release, variables: variables, eval: false,
                                                         extensions: ["ubuntu-appindicators@ubuntu.com"], accessibility: true)
        root = session.root
        session.set("WAYLAND_DISPLAY", "wayland-0")
        do {
            try waitForShell()
        } catch {
            root.stop()
            throw error
        }
    }

    public var environment: [String: String] { session.environment }

    /// The shell's log so far.
    public var shellLog: String { session.log("gnome-shell.log") }

    private func waitForShell() throws {
        guard try session.waitForName("org.freedesktop.Notifications", timeout: 60) else {
            throw HarnessError("nothing took org.freedesktop.Notifications in the \(root.release) root:\n\(shellLog)")
        }
        guard try waitUntil(timeout: 30, interval: 0.2, { try session.accessibility.programs().contains("gnome-shell") }) else {
            throw HarnessError("gnome-shell did not join the accessibility bus:\n\(shellLog)")
        }
    }

    /// The notifications showing now, read through AT-SPI inside the root.
    public func banners() throws -> [GnomeShellAccessibility.Banner] { try session.accessibility.banners() }

    public func stop() { root.stop() }

    deinit { stop() }
}
