import Foundation

/// python3-dbusmock templates that dbusmock itself lacks, for tests that need
/// the exact shape of a desktop program (docs/desktop-facts.md).
public enum DBusMockTemplates {
    /// Writes a template for `org.freedesktop.ScreenSaver` as KDE serves it at
    /// `/ScreenSaver` (`GetActive`, `SetActive` emitting `ActiveChanged`,
    /// `GetSessionIdleTime`) into `directory`; returns its path. The
    /// parameter `active` sets the starting state.
    public static func freedesktopScreenSaver(in directory: URL) throws -> String {
        let file = directory.appendingPathComponent("freedesktop_screensaver.py")
        try """
        BUS_NAME = 'org.freedesktop.ScreenSaver'
        MAIN_OBJ = '/ScreenSaver'
        MAIN_IFACE = 'org.freedesktop.ScreenSaver'
        SYSTEM_BUS = False

        def load(mock, parameters):
            mock.is_active = parameters.get('active', False)
            mock.AddMethods(MAIN_IFACE, [
                ('GetActive', '', 'b', 'ret = self.is_active'),
                ('SetActive', 'b', '', 'self.is_active = args[0]; self.EmitSignal("", "ActiveChanged", "b", [args[0]])'),
                ('GetSessionIdleTime', '', 'u', 'ret = 0'),
            ])

        """.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }
}
