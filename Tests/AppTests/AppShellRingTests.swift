import Foundation
import Testing
import TestSupport

/// The app's side of iCare's GNOME Shell extension: its `preferences` action
/// (the extension's "Preferences" item calls it over
/// org.freedesktop.Application.ActivateAction) opens the preferences window,
/// and on GNOME, with the extension installed but not enabled, the home view
/// offers to turn the ring on, through GNOME Shell's own
/// org.gnome.Shell.Extensions, here a fake of it on the private bus.
@Suite(.serialized) struct AppShellRingTests {
    /// GNOME Shell's org.gnome.Shell.Extensions on /org/gnome/Shell, in the shape the real one has.
    /// Verified against GNOME Shell 50.5 and 48.7 (their js/ui/shellDBus.js and js/misc/extensionUtils.js
    /// in the Debian testing and Debian 13 roots' libshell gresource): GetExtensionInfo(s) → a{sv}, the
    /// metadata's keys plus type, state (d: 1 ACTIVE, 2 INACTIVE, 6 INITIALIZED …), enabled (b), path,
    /// error, hasPrefs, hasUpdate, canChange, sessionModes; {} for an unknown uuid. EnableExtension(s) → b.
    /// ExtensionStateChanged(s, a{sv}) after each change. ShellExtensionRootTests reads the real replies.
    static let fakeShell = #"""
import sys
from gi.repository import Gio, GLib
XML = '''<node><interface name="org.gnome.Shell.Extensions">
<method name="GetExtensionInfo"><arg type="s" direction="in"/><arg type="a{sv}" direction="out"/></method>
<method name="EnableExtension"><arg type="s" direction="in"/><arg type="b" direction="out"/></method>
<signal name="ExtensionStateChanged"><arg type="s"/><arg type="a{sv}"/></signal>
</interface></node>'''
mode = sys.argv[1]  # disabled, enabled or absent
state = {'enabled': mode == 'enabled'}
def info():
    if mode == 'absent':
        return {}
    return {'uuid': GLib.Variant('s', 'ring@icare.org'), 'name': GLib.Variant('s', 'iCare'), 'type': GLib.Variant('d', 1.0),
            'state': GLib.Variant('d', 1.0 if state['enabled'] else 2.0), 'enabled': GLib.Variant('b', state['enabled']),
            'path': GLib.Variant('s', '/usr/share/gnome-shell/extensions/ring@icare.org'), 'error': GLib.Variant('s', ''),
            'hasPrefs': GLib.Variant('b', False), 'hasUpdate': GLib.Variant('b', False), 'canChange': GLib.Variant('b', True),
            'sessionModes': GLib.Variant('av', [GLib.Variant('s', 'user')])}
def call(conn, sender, path, iface, method, params, invocation):
    [uuid] = params.unpack()
    print(method, uuid, flush=True)
    if method == 'GetExtensionInfo':
        invocation.return_value(GLib.Variant('(a{sv})', (info() if uuid == 'ring@icare.org' else {},)))
    else:
        state['enabled'] = True
        invocation.return_value(GLib.Variant('(b)', (True,)))
        conn.emit_signal(None, '/org/gnome/Shell', 'org.gnome.Shell.Extensions', 'ExtensionStateChanged',
                         GLib.Variant('(sa{sv})', (uuid, info())))
bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
bus.register_object('/org/gnome/Shell', Gio.DBusNodeInfo.new_for_xml(XML).interfaces[0], call, None, None)
Gio.bus_own_name_on_connection(bus, 'org.gnome.Shell', Gio.BusNameOwnerFlags.NONE, None, None)
GLib.MainLoop().run()
"""#

    static let offer = "Show iCare’s ring in the top bar?"

    /// The app on "GNOME" with the fake Shell in `mode` there before it starts; `firstStart`: a fresh home,
    /// so the welcome opens over the window.
    static func rig(_ mode: String, firstStart: Bool = false) throws -> AppRig {
        let rig = try AppRig(appEnvironment: ["XDG_CURRENT_DESKTOP": "GNOME"], startApp: false, firstStart: firstStart)
        do {
            let script = rig.work.appendingPathComponent("fake-shell.py").path
            try fakeShell.write(toFile: script, atomically: true, encoding: .utf8)
            try rig.startGroup(["/usr/bin/python3", script, mode], log: "fake-shell.log")
            guard try rig.waitForName("org.gnome.Shell") else { throw HarnessError("the fake Shell did not start: \(rig.log("fake-shell.log"))") }
            try rig.launchApp()
            try rig.waitForHome("the home view") { $0.contains { $0.name.hasPrefix("Next break at ") } }
        } catch {
            rig.stop()
            throw error
        }
        return rig
    }

    /// The welcome's page of the ring makes the same offer, and its Turn On asks the Shell too.
    @Test func theWelcomeOffersTheRingOnGnome() throws {
        let rig = try Self.rig("disabled", firstStart: true)
        defer { rig.stop() }
        try AppWelcomeWindowTests.waitForPage(rig, "the rule", timeout: 20) { $0.contains { $0.name.hasPrefix("Every 20 minutes") } }
        for title in ["Your breaks", "The ring"] {
            try rig.press("Next", within: AppWelcomeWindowTests.title)
            try AppWelcomeWindowTests.waitForPage(rig, title, AppWelcomeWindowTests.label(title))
        }
        let page = try AppWelcomeWindowTests.waitForPage(rig, "the ring's offer") { $0.contains { $0.name == Self.offer } }
        #expect(page.contains { $0.role == "push button" && $0.name == "Turn On" }, "\(page)")
        try rig.press("Turn On", within: AppWelcomeWindowTests.title)
        #expect(waitUntil(timeout: 5, interval: 0.05) { rig.log("fake-shell.log").contains("EnableExtension ring@icare.org") },
                "the Shell was not asked: \(rig.log("fake-shell.log"))")
        try AppWelcomeWindowTests.waitForPage(rig, "the offer gone") { page in
            page.contains { $0.name == "The ring" } && !page.contains { $0.name == Self.offer }
        }
    }

    @Test func theRingIsOfferedWhileTheExtensionIsOffAndTurnedOnWithTheShell() throws {
        let rig = try Self.rig("disabled")
        defer { rig.stop() }
        let home = try rig.waitForText(Self.offer)
        #expect(home.contains { $0.role == "push button" && $0.name == "Turn On" }, "\(home)")
        try rig.press("Turn On")
        #expect(waitUntil(timeout: 5, interval: 0.05) { rig.log("fake-shell.log").contains("EnableExtension ring@icare.org") },
                "the Shell was not asked: \(rig.log("fake-shell.log"))")
        // ExtensionStateChanged, then GetExtensionInfo again: enabled, so the offer goes.
        _ = try rig.waitForHome("the offer gone") { !$0.contains { $0.name == Self.offer } }
        #expect(rig.log("fake-shell.log").components(separatedBy: "GetExtensionInfo ring@icare.org").count - 1 >= 2)
        #expect(try rig.buttons().contains("Start break now"))
    }

    @Test(arguments: ["enabled", "absent"])
    func noOfferWhenTheRingIsOnOrNotInstalled(_ mode: String) throws {
        let rig = try Self.rig(mode)
        defer { rig.stop() }
        // The app has asked (the fake says so) and shows nothing about it.
        #expect(waitUntil(timeout: 5, interval: 0.05) { rig.log("fake-shell.log").contains("GetExtensionInfo ring@icare.org") })
        Thread.sleep(forTimeInterval: 0.5)
        let texts = try rig.texts()
        #expect(!texts.contains(Self.offer), "\(texts)")
        #expect(try !rig.buttons().contains("Turn On"))
    }

    @Test func thePreferencesActionOpensThePreferences() throws {
        let rig = try AppRig()
        defer { rig.stop() }
        try rig.waitForHome("the home view") { $0.contains { $0.name.hasPrefix("Next break at ") } }
        #expect(try rig.preferences().isEmpty)
        // As iCare's GNOME Shell extension calls it (gnome-extension/indicator.js, _activateAction).
        let r = try rig.service.busctl(["call", "org.icare.Reminder.Window", "/org/icare/Reminder", "org.freedesktop.Application", "ActivateAction",
                                        "sava{sv}", "preferences", "0", "0"])
        #expect(r.status == 0, "\(r)")
        let prefs = try rig.waitForPreferences("its rows") { $0.contains { $0.role == "spin button" && $0.name == "Break every" } }
        #expect(prefs.contains { $0.role == "spin button" && $0.name == "Break every" })
        // Once more: the same window, not a second.
        #expect(try rig.service.busctl(["call", "org.icare.Reminder.Window", "/org/icare/Reminder", "org.freedesktop.Application", "ActivateAction",
                                        "sava{sv}", "preferences", "0", "0"]).status == 0)
        Thread.sleep(forTimeInterval: 0.5)
        let windows = try rig.windows().map { $0.first?.name ?? "" }
        #expect(windows.count == 2, "\(windows)")
    }

    /// The ring's "iCare cannot see everything here…" (the extension's and the panel item's) calls `desktop`:
    /// the preferences open on their page "This desktop".
    @Test func theDesktopActionOpensThePreferencesOnThisDesktop() throws {
        let rig = try AppRig()
        defer { rig.stop() }
        try rig.waitForHome("the home view") { $0.contains { $0.name.hasPrefix("Next break at ") } }
        let r = try rig.service.busctl(["call", "org.icare.Reminder.Window", "/org/icare/Reminder", "org.freedesktop.Application", "ActivateAction",
                                        "sava{sv}", "desktop", "0", "0"])
        #expect(r.status == 0, "\(r)")
        let page = try rig.waitForPreferences("the page This desktop") { $0.contains { $0.role == "label" && $0.name == "What iCare can see here" } }
        #expect(!page.contains { $0.role == "spin button" && $0.name == "Break every" }, "the settings' page is not the one shown: \(page)")
    }
}
