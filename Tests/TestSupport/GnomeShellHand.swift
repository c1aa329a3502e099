import Foundation

/// A person's pointer and keyboard on a headless GNOME Shell, and its eyes
/// (screenshots): a small python3 (PyGObject) client that stays connected,
/// since Mutter ends a remote-desktop session when its caller's connection
/// closes. Through `org.gnome.Mutter.RemoteDesktop` (CreateSession,
/// Session.Start, NotifyPointerMotionRelative, NotifyPointerButton,
/// NotifyKeyboardKeysym; no PipeWire needed) and `org.gnome.Shell.Screenshot`,
/// which answers only callers owning an allowed name: the client owns
/// `org.gnome.Screenshot` on the private bus. Motion is relative only, so a
/// move to a point pushes the pointer into the bottom-right corner first (not
/// the top-left one, GNOME's hot corner). One command a line on stdin; each
/// answers `ok` after a round trip to the shell, so it has been handled.
public final class GnomeShellHand: @unchecked Sendable {
    private let client: LineClient
    public static let escape = 0xff1b, left = 0x110, right = 0x111

    public init(environment: [String: String]) throws {
        client = try LineClient(script: Self.script, name: "the remote-desktop client",
                                environment: ProcessInfo.processInfo.environment.merging(environment) { $1 }, timeout: 15)
    }

    /// Moves the pointer to (x, y) of the 1280×800 screen: into the bottom-right corner, then back.
    public func move(x: Int, y: Int) throws {
        try send("move 5000 5000")
        try send("move \(x - HeadlessGnomeShell.width + 1) \(y - HeadlessGnomeShell.height + 1)")
    }

    /// A small motion and back: user activity, which lets waiting banners time out.
    public func wiggle() throws {
        try send("move 3 3")
        try send("move -3 -3")
    }

    /// Moves to (x, y), rests there a moment (as a hand does, and the shell shows hover), then clicks `button`.
    public func click(x: Int, y: Int, button: Int = GnomeShellHand.left) throws {
        try move(x: x, y: y)
        Thread.sleep(forTimeInterval: 0.3)
        try send("press \(button)")
        try send("release \(button)")
    }

    /// Presses and releases a key (an X keysym, e.g. `escape`).
    public func key(_ keysym: Int) throws {
        try send("keydown \(keysym)")
        try send("keyup \(keysym)")
    }

    /// The whole screen as a PNG at `path`.
    public func screenshot(_ path: String) throws { try send("shot " + path) }

    private func send(_ command: String) throws { try client.send(command) }

    public func stop() { client.stop() }

    static let script = #"""
import sys
from gi.repository import Gio, GLib

bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
def call(dest, path, iface, method, args=None, reply=None):
    return bus.call_sync(dest, path, iface, method, args, GLib.VariantType(reply) if reply else None,
                         Gio.DBusCallFlags.NONE, 10000, None)
DBUS = ('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus')
# RequestName flags 4: DO_NOT_QUEUE.
call(*DBUS, 'RequestName', GLib.Variant('(su)', ('org.gnome.Screenshot', 4)), '(u)')
RD = 'org.gnome.Mutter.RemoteDesktop'
[session] = call(RD, '/org/gnome/Mutter/RemoteDesktop', RD, 'CreateSession', None, '(o)').unpack()
S = RD + '.Session'
call(RD, session, S, 'Start')
print('ready', flush=True)
for line in sys.stdin:
    w = line.split()
    if not w:
        continue
    if w[0] == 'move':
        call(RD, session, S, 'NotifyPointerMotionRelative', GLib.Variant('(dd)', (float(w[1]), float(w[2]))))
    elif w[0] in ('press', 'release'):
        call(RD, session, S, 'NotifyPointerButton', GLib.Variant('(ib)', (int(w[1], 0), w[0] == 'press')))
    elif w[0] in ('keydown', 'keyup'):
        call(RD, session, S, 'NotifyKeyboardKeysym', GLib.Variant('(ub)', (int(w[1], 0), w[0] == 'keydown')))
    elif w[0] == 'shot':
        [ok, _] = call('org.gnome.Shell.Screenshot', '/org/gnome/Shell/Screenshot', 'org.gnome.Shell.Screenshot',
                       'Screenshot', GLib.Variant('(bbs)', (False, False, w[1])), '(bs)').unpack()
        if not ok:
            sys.exit('the shell refused the screenshot')
    else:
        sys.exit('unknown command: ' + line)
    # The shell owns both: once it answers, it has handled the event.
    call('org.gnome.Shell', '/org/gnome/Shell', 'org.freedesktop.DBus.Peer', 'Ping')
    print('ok', flush=True)
"""#
}
