/// The python3 (PyGObject) client both GNOME hands run (`GnomeShellHand` on the headless GNOME Shell,
/// `ShellExtensionHand` in a root's): it stays connected, since Mutter ends a remote-desktop session when
/// its caller's connection closes. Pointer and keys through `org.gnome.Mutter.RemoteDesktop`
/// (CreateSession, Session.Start, NotifyPointerMotionRelative, NotifyPointerButton,
/// NotifyKeyboardKeysym; no PipeWire needed), screenshots through `org.gnome.Shell.Screenshot`, which
/// answers only a caller owning an allowed name: `org.gnome.Screenshot` up to GNOME 48,
/// `org.gnome.SettingsDaemon.MediaKeys` on 48 to 50, so the client owns both on the private bus; and the
/// Shell's `Eval`. One command a line (`eval JSON`, `move DX DY`, `button N 1|0`, `key KEYSYM 1|0`,
/// `shot PATH`); each answer, `ok` (`ok VALUE` for eval) or `error JSON`, comes after a round trip to the
/// Shell, so it has been handled.
enum GnomeRemoteDesktop {
    static let script = #"""
import sys, json
from gi.repository import Gio, GLib

bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
def call(dest, path, iface, method, args=None, reply=None, timeout=20000):
    return bus.call_sync(dest, path, iface, method, args, GLib.VariantType(reply) if reply else None,
                         Gio.DBusCallFlags.NONE, timeout, None)
# RequestName flags 4: DO_NOT_QUEUE.
for name in ('org.gnome.Screenshot', 'org.gnome.SettingsDaemon.MediaKeys'):
    call('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus', 'RequestName',
         GLib.Variant('(su)', (name, 4)), '(u)')
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
            call(RD, session, S, 'NotifyPointerButton', GLib.Variant('(ib)', (int(w[0], 0), w[1] == '1')))
        elif command == 'key':
            call(RD, session, S, 'NotifyKeyboardKeysym', GLib.Variant('(ub)', (int(w[0], 0), w[1] == '1')))
        elif command == 'shot':
            [ok, _] = call('org.gnome.Shell.Screenshot', '/org/gnome/Shell/Screenshot', 'org.gnome.Shell.Screenshot',
                           'Screenshot', GLib.Variant('(bbs)', (False, False, rest)), '(bs)').unpack()
            if not ok:
                raise RuntimeError('the shell refused the screenshot')
        else:
            raise RuntimeError('unknown command: ' + command)
        # The Shell owns all of it: once it answers, it has handled the event.
        call('org.gnome.Shell', '/org/gnome/Shell', 'org.freedesktop.DBus.Peer', 'Ping')
        print('ok ' + answer if answer else 'ok', flush=True)
    except Exception as e:
        print('error ' + json.dumps(str(e)), flush=True)
"""#
}
