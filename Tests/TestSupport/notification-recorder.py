#!/usr/bin/python3
# iCare for Linux — Copyright (c) 2026 iCare for Linux contributors.
# SPDX-License-Identifier: MIT (see LICENSE).
"""A notification server that records what it is sent, for tests (NotificationRecorder).

It owns org.freedesktop.Notifications on the bus DBUS_SESSION_BUS_ADDRESS names
(any bus reachable by address: a root's session bus in its shared folder, for
one), answers as a plain server does, and prints one JSON line per call:

  ready
  {"time": …, "method": "Click", "id": N, "key": …}

A test clicks like a person with Click(id, key, token) on org.icare.test.Recorder at
/org/icare/test/Recorder: ActivationToken(id, token) first when token is not empty
(as GNOME Shell and Plasma send it, notification spec 1.2), then ActionInvoked(id, key).
  {"time": <s since the epoch>, "method": "Notify", "id": N, "app": …, "replaces": N,
   "summary": …, "body": …, "actions": [...], "hints": {"name": <value as text>}, "expire": N}
  {"time": …, "method": "CloseNotification", "id": N}
  {"time": …, "method": "GetCapabilities"} / {"time": …, "method": "GetServerInformation"}

Arguments: [--name NAME] [--capabilities "a b c"]. Needs python3-gi (Gio) only.
"""
import argparse
import json
import os
import sys
import time

from gi.repository import Gio, GLib

XML = """
<node>
  <interface name="org.freedesktop.Notifications">
    <method name="Notify">
      <arg type="s" direction="in"/><arg type="u" direction="in"/><arg type="s" direction="in"/>
      <arg type="s" direction="in"/><arg type="s" direction="in"/><arg type="as" direction="in"/>
      <arg type="a{sv}" direction="in"/><arg type="i" direction="in"/><arg type="u" direction="out"/>
    </method>
    <method name="CloseNotification"><arg type="u" direction="in"/></method>
    <method name="GetCapabilities"><arg type="as" direction="out"/></method>
    <method name="GetServerInformation">
      <arg type="s" direction="out"/><arg type="s" direction="out"/><arg type="s" direction="out"/><arg type="s" direction="out"/>
    </method>
    <signal name="NotificationClosed"><arg type="u"/><arg type="u"/></signal>
    <signal name="ActionInvoked"><arg type="u"/><arg type="s"/></signal>
    <signal name="ActivationToken"><arg type="u"/><arg type="s"/></signal>
  </interface>
  <interface name="org.icare.test.Recorder">
    <method name="Click"><arg type="u" direction="in"/><arg type="s" direction="in"/><arg type="s" direction="in"/></method>
  </interface>
</node>
"""


def emit(record):
    sys.stdout.write((record if isinstance(record, str) else json.dumps(record)) + "\n")
    sys.stdout.flush()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--name", default="icare-test-recorder")
    parser.add_argument("--capabilities", default="actions body persistence")
    args = parser.parse_args()
    address = os.environ["DBUS_SESSION_BUS_ADDRESS"]
    flags = Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION
    bus = Gio.DBusConnection.new_for_address_sync(address, flags, None, None)
    node = Gio.DBusNodeInfo.new_for_xml(XML)
    info, control = node.interfaces[0], node.interfaces[1]
    state = {"next": 1, "open": set()}

    def closed(nid, reason):
        bus.emit_signal(None, "/org/freedesktop/Notifications", "org.freedesktop.Notifications",
                        "NotificationClosed", GLib.Variant("(uu)", (nid, reason)))

    def on_call(connection, sender, path, interface, method, params, invocation):
        now = time.time()
        if method == "Notify":
            app, replaces, _icon, summary, body, actions, hints, expire = params.unpack()
            nid = replaces if replaces != 0 else state["next"]
            if replaces == 0:
                state["next"] += 1
            state["open"].add(nid)
            emit({"time": now, "method": "Notify", "sender": sender, "id": nid, "app": app, "replaces": replaces,
                  "summary": summary, "body": body, "actions": list(actions),
                  "hints": {k: str(v) for k, v in hints.items()}, "expire": expire})
            invocation.return_value(GLib.Variant("(u)", (nid,)))
        elif method == "CloseNotification":
            (nid,) = params.unpack()
            emit({"time": now, "method": method, "sender": sender, "id": nid})
            invocation.return_value(None)
            if nid in state["open"]:
                state["open"].discard(nid)
                closed(nid, 3)
        elif method == "GetCapabilities":
            emit({"time": now, "method": method, "sender": sender})
            invocation.return_value(GLib.Variant("(as)", (args.capabilities.split(),)))
        elif method == "GetServerInformation":
            emit({"time": now, "method": method, "sender": sender})
            invocation.return_value(GLib.Variant("(ssss)", (args.name, "iCare tests", "1.0", "1.2")))

    def on_control(connection, sender, path, interface, method, params, invocation):
        nid, key, token = params.unpack()
        emit({"time": time.time(), "method": "Click", "id": nid, "key": key})
        if token:
            bus.emit_signal(None, "/org/freedesktop/Notifications", "org.freedesktop.Notifications",
                            "ActivationToken", GLib.Variant("(us)", (nid, token)))
        bus.emit_signal(None, "/org/freedesktop/Notifications", "org.freedesktop.Notifications",
                        "ActionInvoked", GLib.Variant("(us)", (nid, key)))
        invocation.return_value(None)

    bus.register_object("/org/freedesktop/Notifications", info, on_call, None, None)
    bus.register_object("/org/icare/test/Recorder", control, on_control, None, None)
    owned = bus.call_sync("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "RequestName",
                          GLib.Variant("(su)", ("org.freedesktop.Notifications", 4)), GLib.VariantType("(u)"),
                          Gio.DBusCallFlags.NONE, -1, None).unpack()[0]
    if owned != 1:
        sys.stderr.write("notification-recorder: org.freedesktop.Notifications is taken (RequestName: %d)\n" % owned)
        sys.exit(1)
    emit("ready")
    loop = GLib.MainLoop()
    bus.connect("closed", lambda *_: loop.quit())
    GLib.io_add_watch(sys.stdin.fileno(), GLib.IO_HUP | GLib.IO_ERR, lambda *_: loop.quit() or False)
    loop.run()


if __name__ == "__main__":
    main()
