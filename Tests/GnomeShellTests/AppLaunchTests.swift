import Testing
import Foundation
import TestSupport

extension GnomeShellTests {
    static let superKey = 0xffeb, returnKey = 0xff0d
    /// "icare", as keysyms.
    static let typedName = [0x69, 0x63, 0x61, 0x72, 0x65]

    /// A person opens iCare the way GNOME users open apps: Super, type its
    /// name, Return. The overview's search finds the installed desktop entry
    /// (`org.icare.Reminder.desktop` in the prefix's share), the shell starts it
    /// with that entry's Exec line, and the window shows the home view,
    /// talking to the installed icared.
    @Test func theInstalledAppOpensFromTheOverviewsSearch() throws {
        let desktop = try GnomeDesktop.shared()
        let shell = desktop.shell
        let hand = try shell.pointer()
        defer {
            if let pid = try? desktop.service.ownerProcess(of: "org.icare.Reminder.Window") { kill(pid, SIGKILL) }
            try? hand.key(GnomeShellHand.escape)
            desktop.stopIcared()
        }
        try desktop.startIcared(config: "Interval = 45m\n")
        try hand.key(Self.superKey)
        for key in Self.typedName { try hand.key(key) }
        var seen: [GnomeShellAccessibility.Node] = []
        let found = waitUntil(timeout: 10, interval: 0.3) {
            seen = (try? shell.accessibility.nodes()) ?? []
            return seen.contains { $0.name == "iCare" && $0.w > 0 }
        }
        try #require(found, "the overview's search shows iCare: \(seen)")
        try hand.key(Self.returnKey)
        #expect(try shell.waitForName("org.icare.Reminder.Window", timeout: 15), "the app owns its name on the session bus")
        let home = waitUntil(timeout: 15, interval: 0.3) {
            ((try? shell.accessibility.nodes(of: "icare")) ?? []).contains { $0.name.hasPrefix("Next break at ") }
        }
        #expect(home, "the window shows the home view: \((try? shell.accessibility.nodes(of: "icare")) ?? []); programs: \((try? shell.accessibility.programs()) ?? [])\nshell:\n\(shell.shellLog.suffix(3000))")
        #expect(try shell.accessibility.nodes(of: "icare").contains { $0.role == "push button" && $0.name == "Start break now" })
        try shell.screenshotForDocs("gnome-app", x: 0, y: 0, w: HeadlessGnomeShell.width, h: HeadlessGnomeShell.height)
    }
}
