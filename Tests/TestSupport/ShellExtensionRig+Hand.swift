import Foundation

/// The pointer, keyboard, eyes and `Eval` of `ShellExtensionRig`: one host
/// python3 (PyGObject) client on the root's session bus that stays connected
/// (Mutter ends a remote-desktop session when its caller's connection closes).
/// Clicks go through `org.gnome.Mutter.RemoteDesktop` (CreateSession,
/// Session.Start, NotifyPointerMotionRelative, NotifyPointerButton with
/// evdev's BTN_LEFT 272, NotifyKeyboardKeysym), which has no caller check on
/// 48 and 50; screenshots through `org.gnome.Shell.Screenshot`, which answers
/// only a caller owning an allowed name — on both 48 and 50
/// `org.gnome.SettingsDaemon.MediaKeys` (49/50 dropped `org.gnome.Screenshot`),
/// so the client owns it on the private bus. One command a line; each answer
/// (`ok VALUE` or `error JSON`) comes after a round trip to the Shell.
final class ShellExtensionHand: @unchecked Sendable {
    private let client: LineClient
    private let lock = NSLock()

    init(environment: [String: String]) throws {
        client = try LineClient(script: Self.script, name: "the Shell's remote-desktop client", environment: environment, timeout: 30)
    }

    /// Sends `command ARGUMENT` and returns what follows `ok `.
    func ask(_ command: String, _ argument: String) throws -> String {
        try lock.withLock {
            guard let line = try client.ask(command + " " + argument) else {
                throw HarnessError("no answer to \(command) from the Shell's client")
            }
            if line.hasPrefix("ok ") { return String(line.dropFirst(3)) }
            throw HarnessError("\(command) \(argument.prefix(200)): \(line)")
        }
    }

    /// The whole screen as the Shell draws it, kept as `folder/shots/N.png` (see `keep`).
    func screenshot(_ n: Int, in folder: URL) throws -> Screenshot {
        let png = folder.appendingPathComponent("shots/\(n).png").path
        _ = try ask("shot", png)
        let ppm = png + ".ppm"
        let r = try Subprocess.run(["convert", png, "ppm:" + ppm], environment: DesktopRoot.hostEnvironment)
        guard r.status == 0 else { throw HarnessError("convert \(png): \(r)") }
        defer { try? FileManager.default.removeItem(atPath: ppm) }
        return try Screenshot(file: ppm)
    }

    /// Copies screenshot `n` to ICARE_SHOTS/RELEASE-NAME.png, where a person can look at it, when
    /// ICARE_SHOTS names a folder.
    static func keep(_ n: Int, in folder: URL, as name: String, release: DesktopRoot.Release) {
        guard let dir = ProcessInfo.processInfo.environment["ICARE_SHOTS"], !dir.isEmpty else { return }
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let from = folder.appendingPathComponent("shots/\(n).png").path, to = "\(dir)/\(release)-\(name).png"
        try? FileManager.default.removeItem(atPath: to)
        try? FileManager.default.copyItem(atPath: from, toPath: to)
    }

    func stop() { client.stop() }

    static let script = #"""
import sys, json
from gi.repository import Gio, GLib

bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
def call(dest, path, iface, method, args=None, reply=None, timeout=20000):
    return bus.call_sync(dest, path, iface, method, args, GLib.VariantType(reply) if reply else None,
                         Gio.DBusCallFlags.NONE, timeout, None)
# RequestName flags 4: DO_NOT_QUEUE.
call('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus', 'RequestName',
     GLib.Variant('(su)', ('org.gnome.SettingsDaemon.MediaKeys', 4)), '(u)')
RD = 'org.gnome.Mutter.RemoteDesktop'
[session] = call(RD, '/org/gnome/Mutter/RemoteDesktop', RD, 'CreateSession', None, '(o)').unpack()
S = RD + '.Session'
call(RD, session, S, 'Start')
print('ready', flush=True)
for line in sys.stdin:
    command, _, rest = line.rstrip('\n').partition(' ')
    w = rest.split()
    try:
        answer = ''
        if command == 'eval':
            ok, value = call('org.gnome.Shell', '/org/gnome/Shell', 'org.gnome.Shell', 'Eval',
                             GLib.Variant('(s)', (json.loads(rest),)), '(bs)').unpack()
            answer = json.dumps([ok, value])
        elif command == 'move':
            call(RD, session, S, 'NotifyPointerMotionRelative', GLib.Variant('(dd)', (float(w[0]), float(w[1]))))
        elif command == 'button':
            call(RD, session, S, 'NotifyPointerButton', GLib.Variant('(ib)', (int(w[0]), w[1] == '1')))
        elif command == 'key':
            call(RD, session, S, 'NotifyKeyboardKeysym', GLib.Variant('(ub)', (int(w[0]), w[1] == '1')))
        elif command == 'shot':
            [ok, _] = call('org.gnome.Shell.Screenshot', '/org/gnome/Shell/Screenshot', 'org.gnome.Shell.Screenshot',
                           'Screenshot', GLib.Variant('(bbs)', (False, False, rest)), '(bs)').unpack()
            if not ok:
                raise RuntimeError('the shell refused the screenshot')
        else:
            raise RuntimeError('unknown command: ' + command)
        # The Shell owns all of it: once it answers, it has handled the event.
        call('org.gnome.Shell', '/org/gnome/Shell', 'org.freedesktop.DBus.Peer', 'Ping')
        print('ok ' + answer, flush=True)
    except Exception as e:
        print('error ' + json.dumps(str(e)), flush=True)
"""#
}
