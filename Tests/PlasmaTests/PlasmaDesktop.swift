import Foundation
import TestSupport

/// The installed iCare on a running headless Plasma 5.27 (`HeadlessPlasma`):
/// the installed `icared` on the session's bus with folders of its own, and
/// a person's eyes and hands: the accessibility tree for what is shown,
/// screenshots for the tray's ring, and a real pointer (xdotool's XTEST on
/// X11, KWin's fake input on Wayland) for every press.
final class PlasmaDesktop: @unchecked Sendable {
    let plasma: HeadlessPlasma
    let service: ServiceHarness
    private var pointer: VirtualPointer?
    private var menuWatcher: PopupMenuWatcher?

    /// The ring's colours (RingRenderer): blue counting down to the break, orange when it is due.
    static let blue: [UInt8] = [0x35, 0x84, 0xE4], orange: [UInt8] = [0xE6, 0x61, 0x00]

    /// A Plasma session and the installed icared (not started yet), with `config`.
    init(_ session: HeadlessPlasma.Session, config: String = "BreakDuration = 10s\n") throws {
        let installed = try SuiteInstall.installed()
        plasma = try HeadlessPlasma(session, dataDirectories: [installed.share])
        do {
            // As a session starts it: the desktop's variables, the prefix's share on XDG_DATA_DIRS. Not
            // WAYLAND_DISPLAY: a headless session has no input, and KWin's idle protocol would make the
            // tests' pauses count as time away (that watch is WaylandIdleServiceTests').
            var env = plasma.environment.filter { ["XDG_DATA_DIRS", "XDG_CURRENT_DESKTOP", "KDE_FULL_SESSION", "KDE_SESSION_VERSION",
                                                   "XDG_SESSION_TYPE", "DISPLAY"].contains($0.key) }
            env["WAYLAND_DISPLAY"] = ""
            service = try ServiceHarness(config: config, environment: env, bus: plasma.bus, start: false)
            service.program = installed.icared
        } catch {
            plasma.stop()
            throw error
        }
    }

    var session: HeadlessPlasma.Session { plasma.session }

    // MARK: what a person sees

    /// Everything plasmashell shows now, from the accessibility tree.
    func screen() throws -> PlasmaScreen {
        let script = plasma.directory.appendingPathComponent("plasma-screen.py").path
        if !FileManager.default.fileExists(atPath: script) {
            try PlasmaScreen.script.write(toFile: script, atomically: true, encoding: .utf8)
        }
        let r = try Subprocess.run(["/usr/bin/python3", script, String(plasma.height - 44)], environment: plasma.environment, timeout: 20)
        return try PlasmaScreen.parse(r)
    }

    /// What is shown, for a failure's message.
    var onScreen: String { (try? screen()).map { "\($0)" } ?? "(unreadable)" }

    /// Waits (bounded) until exactly one popup shows and `match` accepts it.
    func bubble(timeout: TimeInterval = 15, _ match: (PlasmaBubble) -> Bool) throws -> PlasmaBubble {
        let (found, seen) = try waitForOne(timeout: timeout, interval: 0.2, { try screen().bubbles }, match)
        guard let found else { throw HarnessError("on screen (\(session)): \(seen)\nicared:\n\(service.log)") }
        return found
    }

    /// Waits (bounded) until no popup shows.
    func noBubble(timeout: TimeInterval = 15) throws -> Bool {
        try waitUntil(timeout: timeout, interval: 0.2) { try screen().bubbles.isEmpty }
    }

    /// The screen's pixels now: `import` on X11, spectacle on Wayland (KWin's own screenshot).
    func pixels() throws -> Screenshot {
        let ppm = plasma.directory.appendingPathComponent("screen.ppm").path
        switch session {
        case .x11:
            let r = try Subprocess.run(["import", "-window", "root", "-depth", "8", "ppm:" + ppm], environment: plasma.environment)
            guard r.status == 0 else { throw HarnessError("import failed: \(r)") }
        case .wayland:
            let png = plasma.directory.appendingPathComponent("screen.png").path
            try? FileManager.default.removeItem(atPath: png)
            let r = try Subprocess.run(["spectacle", "-b", "-n", "-f", "-o", png], environment: plasma.environment, timeout: 30)
            guard r.status == 0, FileManager.default.fileExists(atPath: png) else { throw HarnessError("spectacle failed: \(r)") }
            let c = try Subprocess.run(["convert", png, "-depth", "8", "ppm:" + ppm])
            guard c.status == 0 else { throw HarnessError("convert failed: \(c)") }
        }
        return try Screenshot(file: ppm)
    }

    /// Waits (bounded) for the ring drawn in `colour` in the panel (the bottom 44 px); its centre.
    func ring(_ colour: [UInt8], timeout: TimeInterval = 15) throws -> (x: Int, y: Int) {
        try Screenshot.ringCentre(timeout: timeout, context: "colour \(colour) (\(session)), icared:\n\(service.log)") {
            let shot = try pixels()
            return shot.points(of: colour, xs: 0..<shot.width, ys: (shot.height - 44)..<shot.height)
        }
    }

    // MARK: what a person does

    /// A press of pointer `button` (1 left, 3 right) at a point of the screen, after the pointer came to rest there.
    func click(x: Int, y: Int, button: Int = 1) throws {
        switch session {
        case .x11:
            let r = try Subprocess.run(["xdotool", "mousemove", "\(x)", "\(y)", "sleep", "0.3", "click", "\(button)"],
                                       environment: plasma.environment)
            guard r.status == 0 else { throw HarnessError("xdotool failed: \(r)") }
        case .wayland:
            if pointer == nil {
                pointer = try VirtualPointer(socket: plasma.waylandSocket, width: plasma.width, height: plasma.height, kind: .kwin)
            }
            try pointer?.click(x: x, y: y, button: button == 3 ? VirtualPointer.right : VirtualPointer.left)
        }
    }

    func click(_ control: Control, button: Int = 1) throws { try click(x: control.centre.x, y: control.centre.y, button: button) }

    /// Right-clicks the item at `point` and waits (bounded) for its menu; returns the menu's rows.
    func openMenu(at point: (x: Int, y: Int)) throws -> [Control] {
        if menuWatcher == nil {
            menuWatcher = try PopupMenuWatcher(launcher: ["/usr/bin/python3"], environment: ProcessInfo.processInfo.environment.merging(plasma.environment) { $1 },
                                               folder: plasma.directory)
        }
        try click(x: point.x, y: point.y, button: 3)
        guard let rows = try menuWatcher?.waitForMenu() else {
            throw HarnessError("no menu opened (\(session)): \(onScreen)\nplasmashell: \(plasma.log("plasmashell.log").suffix(3000))")
        }
        return rows.map(Self.control)
    }

    /// The rows of the menu open now (none when no menu shows).
    func menuRows() throws -> [Control] {
        guard let menuWatcher else { throw HarnessError("no menu was opened") }
        return try menuWatcher.rows().map(Self.control)
    }

    private static func control(_ row: PopupMenuRow) -> Control {
        Control(name: row.name, x: row.x, y: row.y, w: row.w, h: row.h, enabled: row.enabled)
    }

    /// Clicks the menu row labelled `label` (the menu must be open).
    func chooseRow(_ label: String, in rows: [Control]) throws {
        guard let row = rows.first(where: { $0.name == label }) else { throw HarnessError("no row \(label) in \(rows)") }
        try click(row)
    }

    /// When ICARE_SCREENSHOTS names a folder, a part of the screen goes there as `name`.png.
    func screenshot(_ name: String, x: Int, y: Int, w: Int, h: Int) throws {
        guard let dir = Screenshot.docsFolder else { return }
        let shot = plasma.directory.appendingPathComponent("screen.ppm").path
        _ = try pixels()
        let crop = "\(w)x\(h)+\(max(0, x))+\(max(0, y))"
        try Screenshot.writeForDocs(name, in: dir, magick: ["convert", shot, "-crop", crop, "+repage"], colours: nil)
    }

    func screenshot(_ name: String, _ b: PlasmaBubble) throws {
        try screenshot(name, x: b.x - 6, y: b.y - 6, w: b.w + 12, h: b.h + 12)
    }

    // MARK: the service

    /// Waits (bounded) until icared's State is `state`.
    func state(becomes state: String, timeout: TimeInterval = 15) throws -> Bool {
        try waitUntil(timeout: timeout, interval: 0.1) { try service.string("State") == state }
    }

    /// icared stops (SIGTERM) and starts again with a reminder a second away (and `arguments` after its usual ones).
    func restartDue(_ arguments: [String] = []) throws {
        if service.process != nil { _ = try service.signal(SIGTERM) }
        let now = Int64(Date().timeIntervalSince1970 * 1_000_000), next = now + 1_000_000
        try FileManager.default.createDirectory(atPath: service.stateDirectory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        try "icare-engine=1\nclock=\(now)\nphase=waiting\nstart=\(next - 1_200_000_000)\nnext=\(next)\npause=none\n"
            .write(toFile: service.stateDirectory + "/state", atomically: true, encoding: .utf8)
        try service.start(arguments: ["--log-stderr", "--debug"] + arguments)
    }

    /// The history's records of today as `GetHistory` gives them: (kind, seconds rested).
    func history() throws -> [(kind: String, seconds: UInt32)] {
        let now = UInt64(Date().timeIntervalSince1970 * 1_000_000)
        let r = try service.busctl(["--json=short", "call", "org.icare.Reminder", "/org/icare/Reminder", "org.icare.Reminder",
                                    "GetHistory", "tt", "0", String(now + 86_400_000_000)])
        guard r.status == 0, let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any],
              let data = json["data"] as? [[[Any]]], let records = data.first else { throw HarnessError("GetHistory: \(r)") }
        return records.compactMap { rec in
            guard rec.count == 3, let kind = rec[1] as? String, let s = (rec[2] as? NSNumber)?.uint32Value else { return nil }
            return (kind, s)
        }
    }

    func stop() {
        pointer?.stop()
        pointer = nil
        menuWatcher?.stop()
        menuWatcher = nil
        service.kill9()
        plasma.stop()
        service.stop()
    }

    deinit { stop() }
}
