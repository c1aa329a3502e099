import Foundation

/// A pointer device on a headless sway, which has none of its own (and so
/// gives its seat no pointer capability, so no client gets a click): a
/// virtual pointer made with wlroots' `zwlr_virtual_pointer_manager_v1`
/// (wlr-virtual-pointer-unstable-v1, which sway 1.7 offers). Debian 12 has
/// no tool for it, so a small python3 client speaks the Wayland wire
/// protocol over the compositor's socket itself. It stays running (the
/// device lives as long as its connection) and takes one command a line
/// on stdin, answering `ok` after a `wl_display.sync` round trip, so the
/// compositor has handled the event when a call here returns.
public final class VirtualPointer: @unchecked Sendable {
    private let client: LineClient
    /// The headless output's size (HeadlessSway's config): the extent of absolute motion.
    private let width: Int, height: Int

    /// The protocol the device is made with.
    public enum Kind: String, Sendable {
        /// wlroots' `zwlr_virtual_pointer_manager_v1` (sway).
        case wlroots
        /// KWin's `org_kde_kwin_fake_input` (Plasma; KWin must run with
        /// KWIN_WAYLAND_NO_PERMISSION_CHECKS=1, or it offers it only to the programs KDE trusts).
        case kwin
    }

    /// Connects to the compositor at `socket` (an absolute WAYLAND_DISPLAY) and makes the device.
    public init(socket: String, width: Int = 640, height: Int = 480, kind: Kind = .wlroots) throws {
        self.width = width
        self.height = height
        client = try LineClient(script: Self.script, name: "the virtual pointer",
                                environment: ["WAYLAND_DISPLAY": socket, "PATH": "/usr/bin:/bin", "ICARE_POINTER": kind.rawValue],
                                timeout: 10)
    }

    /// Moves the pointer to (x, y) on the output.
    public func move(x: Int, y: Int) throws { try send("move \(x) \(y) \(width) \(height)") }

    /// Moves to (x, y), rests there a moment (as a hand does), then presses and
    /// releases `button` (evdev codes: `left` 0x110, `right` 0x111).
    public func click(x: Int, y: Int, button: Int) throws {
        try move(x: x, y: y)
        Thread.sleep(forTimeInterval: 0.3)
        try send("press \(button)")
        try send("release \(button)")
    }

    public static let left = 0x110, right = 0x111

    private func send(_ command: String) throws { try client.send(command) }

    public func stop() { client.stop() }

    /// The client. Message layout from wayland.xml's wire format (object id,
    /// then size << 16 | opcode, then the arguments, native-endian 32-bit
    /// words; strings length-prefixed with their NUL and padded to 4 bytes);
    /// opcodes are the order of the requests and events in the XML:
    /// wl_display sync 0 and get_registry 1, events error 0; wl_registry bind 0,
    /// event global 0; wl_callback event done 0 (/usr/share/wayland/wayland.xml);
    /// zwlr_virtual_pointer_manager_v1 create_virtual_pointer 0 (seat, new_id);
    /// zwlr_virtual_pointer_v1 motion 0, motion_absolute 1 (time, x, y,
    /// x_extent, y_extent), button 2 (time, button, state), frame 4, read in
    /// unstable/wlr-virtual-pointer-unstable-v1.xml of swaywm/wlr-protocols;
    /// org_kde_kwin_fake_input authenticate 0 (application, reason), button 2
    /// (button, state), pointer_motion_absolute 9 (x, y as 24.8 fixed), version 4,
    /// read in /usr/share/plasma-wayland-protocols/fake-input.xml (Debian 12's plasma-wayland-protocols).
    static let script = #"""
import os, socket, struct, sys

# Wire format (wayland.xml / the Wayland book): each message is
# [object id u32][(size << 16) | opcode u32][args], little-endian on x86, 4-byte aligned.
# Opcodes are the order of <request>/<event> elements in the XML.
sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
sock.connect(os.environ["WAYLAND_DISPLAY"])
next_id = 2
buf = b""

def new_id():
    global next_id
    next_id += 1
    return next_id - 1

def send(obj, opcode, payload=b""):
    sock.sendall(struct.pack("=II", obj, ((8 + len(payload)) << 16) | opcode) + payload)

def string(s):
    b = s.encode() + b"\0"
    return struct.pack("=I", len(b)) + b + b"\0" * (-len(b) % 4)

def read_event():
    global buf
    while True:
        if len(buf) >= 8:
            obj, word = struct.unpack("=II", buf[:8])
            size = word >> 16
            if len(buf) >= size:
                msg, buf = buf[:size], buf[size:]
                return obj, word & 0xffff, msg[8:]
        chunk = sock.recv(4096)
        if not chunk:
            sys.exit("the compositor closed the connection")
        buf += chunk

def roundtrip(on_event=lambda o, op, a: None):
    cb = new_id()
    send(1, 0, struct.pack("=I", cb))            # wl_display.sync(callback)
    while True:
        obj, op, args = read_event()
        if obj == 1 and op == 0:                  # wl_display.error(object, code, message)
            o, code, n = struct.unpack("=III", args[:12])
            sys.exit("protocol error on object %d, code %d: %s" % (o, code, args[12:12 + n - 1].decode()))
        if obj == cb and op == 0:                 # wl_callback.done
            return
        on_event(obj, op, args)

registry = new_id()
send(1, 1, struct.pack("=I", registry))           # wl_display.get_registry(registry)
globals_ = {}
def on_global(obj, op, args):
    if obj == registry and op == 0:               # wl_registry.global(name, interface, version)
        name, n = struct.unpack("=II", args[:8])
        globals_[args[8:8 + n - 1].decode()] = name
roundtrip(on_global)

def bind(interface, version):
    if interface not in globals_:
        sys.exit("the compositor offers no %s" % interface)
    oid = new_id()                                # wl_registry.bind(name, new_id: interface, version, id)
    send(registry, 0, struct.pack("=I", globals_[interface]) + string(interface) + struct.pack("=II", version, oid))
    return oid

kwin = os.environ.get("ICARE_POINTER") == "kwin"
if kwin:
    pointer = bind("org_kde_kwin_fake_input", 4)
    send(pointer, 0, string("iCare tests") + string("a person's pointer"))   # authenticate(application, reason)
else:
    seat = bind("wl_seat", 1)
    manager = bind("zwlr_virtual_pointer_manager_v1", 1)
    pointer = new_id()
    send(manager, 0, struct.pack("=II", seat, pointer))   # create_virtual_pointer(seat, id)
roundtrip()
print("ready", flush=True)

for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    t = 0
    if words[0] == "move" and kwin:               # pointer_motion_absolute(x, y), 24.8 fixed
        send(pointer, 9, struct.pack("=ii", int(words[1]) * 256, int(words[2]) * 256))
    elif words[0] in ("press", "release") and kwin:   # button(button, state)
        send(pointer, 2, struct.pack("=II", int(words[1], 0), 1 if words[0] == "press" else 0))
    elif words[0] == "move":                      # motion_absolute(time, x, y, x_extent, y_extent); frame
        send(pointer, 1, struct.pack("=IIIII", t, *map(int, words[1:5])))
        send(pointer, 4)
    elif words[0] in ("press", "release"):        # button(time, button, state); frame
        send(pointer, 2, struct.pack("=III", t, int(words[1], 0), 1 if words[0] == "press" else 0))
        send(pointer, 4)
    else:
        sys.exit("unknown command: " + line)
    roundtrip()
    print("ok", flush=True)
"""#
}
