import Testing
import Foundation
import TestSupport

/// Fifty disables and enables in a row (the Shell's own
/// org.gnome.Shell.Extensions methods, as gnome-extensions and the Extensions
/// app call them) leave nothing behind, counted through the Shell (Eval):
/// - actors: every actor under the stage (the indicator, its menu in the
///   ui group), the top bar's boxes, `statusArea`, the panel's menu manager;
/// - GObject signal handlers: handler ids are one global sequence, so every
///   id handed out during the first 49 cycles and the last disable that is
///   still connected on a long-lived object of the Shell (panel, boxes, stage,
///   display, layout manager, session mode, St settings, theme context, app
///   system, the session bus connection, …) was left behind; what the last
///   enable connected is the live indicator's (reported). JS-signal objects
///   (Signals.addSignalMethods) by their `_signalConnections`. Objects not in
///   the list, and the GJS wrappers the garbage collector has not freed yet,
///   are not counted;
/// - main-loop sources: source ids are one sequence too; those handed out
///   before the last enable and still attached to the main context (GJS's own
///   "[gjs] Garbage Collection" timers aside), with a quiet window of the same
///   length beside them for what the Shell keeps by itself (a few unnamed ones: it
///   can't be told from here whose a source is, so fewer than one per cycle passes);
/// - D-Bus: the Shell connection's match rules (D-Bus subscriptions, name
///   watches; the bus's Debug.Stats) and the names it owns.
extension ShellExtensionSteps {
    static let countJS = #"""
    (globalThis.icareCount = () => {
        const {GObject, GLib, St} = imports.gi;
        const actors = a => 1 + a.get_children().reduce((n, c) => n + actors(c), 0);
        const objects = {
            panel: Main.panel, rightBox: Main.panel._rightBox, leftBox: Main.panel._leftBox, centerBox: Main.panel._centerBox,
            stage: global.stage, display: global.display, windowManager: global.window_manager,
            workspaceManager: global.workspace_manager, backend: global.backend, layoutManager: Main.layoutManager,
            uiGroup: Main.uiGroup, sessionMode: Main.sessionMode, overview: Main.overview, extensionManager: Main.extensionManager,
            messageTray: Main.messageTray, menuManager: Main.panel.menuManager, stSettings: St.Settings.get(),
            themeContext: St.ThemeContext.get_for_stage(global.stage), focusManager: St.FocusManager.get_for_stage(global.stage),
            appSystem: imports.gi.Shell.AppSystem.get_default(), sessionBus: Gio.DBus.session, settings: global.settings,
        };
        const handlerId = () => { const o = new GObject.Object(); const id = o.connect('notify', () => {}); o.disconnect(id); return id; };
        const sourceId = () => { const id = GLib.idle_add(GLib.PRIORITY_LOW, () => GLib.SOURCE_REMOVE); GLib.Source.remove(id); return id; };
        const jsSignals = {};
        for (const [k, o] of Object.entries(objects))
            if (o && !(o instanceof GObject.Object) && Array.isArray(o._signalConnections)) jsSignals[k] = o._signalConnections.length;
        return {actors: actors(global.stage), rightBox: Main.panel._rightBox.get_n_children(),
            statusArea: Object.keys(Main.panel.statusArea).sort(), menus: Main.panel.menuManager._menus.length,
            jsSignals, handlerId: handlerId(), sourceId: sourceId()};
    }) && 'ok'
    """#

    static let leftJS = #"""
    (globalThis.icareLeft = (fromHandler, toHandler, fromSource, toSource) => {
        const {GObject, GLib, St} = imports.gi;
        const objects = {
            panel: Main.panel, rightBox: Main.panel._rightBox, leftBox: Main.panel._leftBox, centerBox: Main.panel._centerBox,
            stage: global.stage, display: global.display, windowManager: global.window_manager,
            workspaceManager: global.workspace_manager, backend: global.backend, layoutManager: Main.layoutManager,
            uiGroup: Main.uiGroup, sessionMode: Main.sessionMode, overview: Main.overview, extensionManager: Main.extensionManager,
            stSettings: St.Settings.get(), themeContext: St.ThemeContext.get_for_stage(global.stage),
            focusManager: St.FocusManager.get_for_stage(global.stage), appSystem: imports.gi.Shell.AppSystem.get_default(),
            sessionBus: Gio.DBus.session, settings: global.settings, messageTray: Main.messageTray,
        };
        const handlers = {};
        for (const [k, o] of Object.entries(objects)) {
            if (!(o instanceof GObject.Object)) continue;
            let n = 0;
            for (let id = fromHandler + 1; id < toHandler; id++) if (GObject.signal_handler_is_connected(o, id)) n++;
            if (n > 0) handlers[k] = n;
        }
        const context = GLib.MainContext.default();
        const sources = [];
        for (let id = fromSource + 1; id < toSource; id++) {
            const s = context.find_source_by_id(id);
            if (s && !s.is_destroyed()) sources.push(id === Main.panel.statusArea['ring@icare.org']?._timeoutId ? 'ring timeout' : (s.get_name() || String(id)));
        }
        return {handlers, sources};
    }) && 'ok'
    """#

    struct Count: Equatable, CustomStringConvertible {
        let actors: Int, rightBox: Int, statusArea: [String], menus: Int, jsSignals: [String: Int]
        let handlerId: Int, sourceId: Int
        var description: String {
            "\(actors) actors, \(rightBox) in the right box, statusArea \(statusArea), \(menus) menus, JS signals \(jsSignals)"
        }
        func same(_ o: Count) -> Bool {
            actors == o.actors && rightBox == o.rightBox && statusArea == o.statusArea && menus == o.menus && jsSignals == o.jsSignals
        }
    }

    func count() throws -> Count {
        guard let d = try rig.evalObject("icareCount()") as? [String: Any] else { throw HarnessError("icareCount gave nothing") }
        func int(_ k: String) -> Int { (d[k] as? NSNumber)?.intValue ?? -1 }
        return Count(actors: int("actors"), rightBox: int("rightBox"), statusArea: d["statusArea"] as? [String] ?? [],
                     menus: int("menus"), jsSignals: (d["jsSignals"] as? [String: Int]) ?? [:],
                     handlerId: int("handlerId"), sourceId: int("sourceId"))
    }

    func left(_ a: Count, _ b: Count) throws -> (handlers: [String: Int], sources: [String]) {
        guard let d = try rig.evalObject("icareLeft(\(a.handlerId), \(b.handlerId), \(a.sourceId), \(b.sourceId))") as? [String: Any] else {
            throw HarnessError("icareLeft gave nothing")
        }
        return ((d["handlers"] as? [String: Int]) ?? [:], (d["sources"] as? [String]) ?? [])
    }

    /// The Shell connection's match rules, from the bus's Debug.Stats (nil when the bus has no statistics).
    func shellMatchRules() throws -> Int? {
        let owner = DesktopRootSession.strings(try rig.session.call("org.freedesktop.DBus", "/org/freedesktop/DBus",
                                                                    "org.freedesktop.DBus.GetNameOwner", ["org.gnome.Shell"])).first ?? ""
        guard let stats = try? rig.session.call("org.freedesktop.DBus", "/org/freedesktop/DBus",
                                                "org.freedesktop.DBus.Debug.Stats.GetConnectionStats", [owner]),
              let range = stats.range(of: "'MatchRules': <uint32 ") else { return nil }
        return Int(stats[range.upperBound...].prefix { $0.isNumber })
    }

    func fiftyDisablesAndEnables() throws {
        try rig.eval(Self.countJS)
        try rig.eval(Self.leftJS)
        let cyclesStarted = Date()
        try rig.extensions("DisableExtension")
        try rig.extensions("EnableExtension")
        #expect(try waitUntil(timeout: 5, interval: 0.1) { try rig.indicator()?.label == "20 min" })
        Thread.sleep(forTimeInterval: 1)
        let before = try count(), rulesBefore = try shellMatchRules()
        for _ in 0..<49 {
            try rig.extensions("DisableExtension")
            try rig.extensions("EnableExtension")
        }
        try rig.extensions("DisableExtension")
        // What is connected from here on is the last indicator's, which is alive.
        let lastEnable = try count()
        try rig.extensions("EnableExtension")
        #expect(try waitUntil(timeout: 5, interval: 0.1) { try rig.indicator()?.label == "20 min" }, "after 50 cycles: \(String(describing: try? rig.indicator()))")
        let cycleSeconds = Date().timeIntervalSince(cyclesStarted)
        Thread.sleep(forTimeInterval: 1)
        let after = try count(), rulesAfter = try shellMatchRules()
        let leftBehind = try left(before, lastEnable), live = try left(lastEnable, after)
        // A quiet window as long as the cycles: the sources the Shell itself keeps meanwhile.
        let quietEnd = try count()
        Thread.sleep(forTimeInterval: max(0, cycleSeconds - 2))
        let quiet = try left(quietEnd, try count())

        #expect(before.same(after), "50 disables and enables: before \(before), after \(after)")
        #expect(leftBehind.handlers.isEmpty, "signal handlers connected by the 49 earlier cycles still there: \(leftBehind.handlers)")
        // GJS names its own garbage-collection timers "[gjs] …" and the Shell its own work "[gnome-shell] …"
        // (its deferred work, seen in the live window on 50.5). The Shell also keeps a few unnamed ones a
        // while (three consecutive ids, in the quiet window on 48.7, among the cycles' on 50.5): what a leak
        // would show is one or more per cycle, 49 or more.
        let notTheirs = { (name: String) in !name.hasPrefix("[gjs]") && !name.hasPrefix("[gnome-shell]") }
        let ours = leftBehind.sources.filter(notTheirs)
        let sourcesSeen = "main-loop sources made by the 49 earlier cycles still attached: \(leftBehind.sources); "
            + "in a quiet window as long: \(quiet.sources)"
        #expect(ours.count < 10, "\(sourcesSeen)")
        // The live indicator's own is its ring timeout (named by the count); the Shell's three unnamed ones
        // can fall in this window too (seen on 50.5 on 2026-12-05), as they do in the others.
        let liveNotGJS = live.sources.filter(notTheirs)
        let liveUnnamed = liveNotGJS.filter { $0.allSatisfy(\.isNumber) }
        #expect(liveNotGJS.count - liveUnnamed.count <= 1 && liveUnnamed.count <= 3, "the live indicator's sources: \(live.sources)")
        if let rulesBefore, let rulesAfter {
            // Fewer is the Shell's own (one went on 48.7 between the counts); more would be the cycles'.
            #expect(rulesAfter <= rulesBefore, "the Shell's match rules: \(rulesBefore) before, \(rulesAfter) after")
        } else {
            Issue.record("the bus in the \(release) root gives no statistics (Debug.Stats): match rules not counted")
        }
        #expect(try rig.session.nameHasOwner("org.icare.Reminder.ShellRing"))
        print("""
            GNOME Shell \(release.gnomeShell): 50 disables and enables in \(String(format: "%.1f", cycleSeconds)) s; \(after);
              left by 49 cycles: handlers \(leftBehind.handlers), sources \(leftBehind.sources) (a quiet window: \(quiet.sources));
              the live indicator's: handlers \(live.handlers), sources \(live.sources);
              match rules \(rulesBefore.map(String.init) ?? "?") → \(rulesAfter.map(String.init) ?? "?")
            """)
        // And it works: a change shows.
        _ = try icarectl(["start"], shows: .break, least: 12)
        _ = try icarectl(["skip"], shows: .waiting, least: 12)
    }
}
