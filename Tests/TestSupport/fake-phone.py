#!/usr/bin/python3
# iCare for Linux — Copyright (c) 2026 iCare for Linux contributors.
# SPDX-License-Identifier: MIT (see LICENSE).
"""A fake Android phone for KDE Connect's LAN protocol, for tests (KDEConnectRig).

It plays the phone's side as kdeconnectd 22.12 (protocol 7) and 24.x-26.08
(protocol 8) expect it, read from KDE Connect's core/backends/lan/lanlinkprovider.cpp
and core/backends/pairinghandler.cpp (docs/desktop-facts.md, "Phones: KDE Connect"):

  1. TCP to the desktop (127.0.0.1:1716), then its identity packet in plain text,
     one JSON line (kdeconnectd ignores UDP identities from loopback outside its
     test mode, so the phone does not use UDP at all);
  2. TLS, the phone being the TLS *server* (the desktop accepted the TCP
     connection and starts client encryption), with a self-signed certificate
     whose CN is the deviceId (kdeconnectd takes the device's id from it);
  3. protocol 8 only: both send their identity again, inside TLS;
  4. packets, one JSON line each: {"id": <ms>, "type": "...", "body": {...}}.
     Pairing is `kdeconnect.pair {"pair": true}` (protocol 8 adds `timestamp`,
     seconds since the epoch), the desktop answering with the same packet when
     it accepts; `{"pair": false}` unpairs.

Output (stdout, one line each, flushed):
  ready                         once, after the certificate is there
  {"id": …, "type": …, …}       every packet received from the desktop, as received
                                (the protocol-8 identity inside TLS included), plus
                                "_received": when its line was complete (seconds since the
                                epoch, a float: latency measurements compare it with the
                                desktop's clock, which is the same clock here)
  ok <what> / error <why>       one answer per command
  event closed                  the desktop closed the connection (not after `disconnect`)

Commands (stdin, one a line):
  connect                       TCP + identity + TLS (retried for --connect-timeout s)
  pair | unpair                 sends kdeconnect.pair {"pair": true / false}
  send <type> <json body>       sends any packet (e.g. send kdeconnect.ping {"message":"hi"})
  disconnect                    closes the connection (the device becomes unreachable)
  quit                          closes and exits

Arguments: DEVICE_ID [--name NAME] [--protocol 7|8] [--host H] [--port P]
           [--state DIR] (the certificate and key live there, made with the openssl
           CLI when missing, so that a reconnection shows the same certificate)
           [--connect] (connect at start, after `ready`) [--connect-timeout S]
           [--no-run-command] (declare no Run command, as a phone with the plugin off)
"""
import argparse
import json
import os
import socket
import ssl
import subprocess
import sys
import threading
import time

OUT = threading.Lock()


def emit(line):
    with OUT:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()


def log(text):
    sys.stderr.write("fake-phone: %s\n" % text)
    sys.stderr.flush()


def packet(kind, body):
    return (json.dumps({"id": int(time.time() * 1000), "type": kind, "body": body}) + "\n").encode()


class Phone:
    def __init__(self, args):
        self.args = args
        self.lock = threading.Lock()
        self.conn = None          # the TLS socket while connected
        self.generation = 0       # bumped by each connect / disconnect, so a stale reader stays quiet
        os.makedirs(args.state, exist_ok=True)
        self.cert = os.path.join(args.state, "certificate.pem")
        self.key = os.path.join(args.state, "private.pem")
        if not (os.path.exists(self.cert) and os.path.exists(self.key)):
            # A P-256 key: TLS 1.3, and TLS 1.2's ECDHE-ECDSA-AES*-GCM that kdeconnectd 22.12 lists.
            made = subprocess.run(
                ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                 "-nodes", "-keyout", self.key, "-out", self.cert, "-days", "3650",
                 "-subj", "/O=KDE/OU=Kde connect/CN=%s" % args.device_id],
                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            if made.returncode != 0:
                raise SystemExit("fake-phone: openssl failed: %s" % made.stderr)

    def identity(self):
        return {
            "deviceId": self.args.device_id,
            "deviceName": self.args.name,
            "deviceType": "phone",
            "protocolVersion": self.args.protocol,
            # The desktop loads a plugin when the phone takes what it sends: ping, notifications, and
            # Run command (the list comes as kdeconnect.runcommand; the phone asks with
            # kdeconnect.runcommand.request {"key": …}), as the Android app declares them.
            "incomingCapabilities": ["kdeconnect.ping", "kdeconnect.notification"]
            + ([] if self.args.no_run_command else ["kdeconnect.runcommand"]),
            "outgoingCapabilities": ["kdeconnect.ping", "kdeconnect.notification"]
            + ([] if self.args.no_run_command else ["kdeconnect.runcommand.request"]),
        }

    # -- connection

    def connect(self):
        with self.lock:
            if self.conn is not None:
                return "error already connected"
        deadline = time.monotonic() + self.args.connect_timeout
        last = None
        while True:
            try:
                raw = socket.create_connection((self.args.host, self.args.port), timeout=5)
                break
            except OSError as e:
                last = e
                if time.monotonic() > deadline:
                    return "error cannot connect to %s:%d: %s" % (self.args.host, self.args.port, last)
                time.sleep(0.1)
        try:
            raw.sendall(packet("kdeconnect.identity", self.identity()))
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(self.cert, self.key)
            context.verify_mode = ssl.CERT_NONE   # the desktop's certificate is not checked
            conn = context.wrap_socket(raw, server_side=True)
            conn.settimeout(None)
            buffered = b""
            if self.args.protocol >= 8:
                conn.sendall(packet("kdeconnect.identity", self.identity()))
                conn.settimeout(10)
                while b"\n" not in buffered:
                    chunk = conn.recv(65536)
                    if not chunk:
                        raise OSError("the desktop closed the connection during the protocol-8 identity exchange")
                    buffered += chunk
                conn.settimeout(None)
        except (OSError, ssl.SSLError) as e:
            raw.close()
            return "error handshake failed: %s" % e
        with self.lock:
            self.generation += 1
            self.conn = conn
            generation = self.generation
        threading.Thread(target=self.read, args=(conn, generation, buffered), daemon=True).start()
        return "ok connected"

    def read(self, conn, generation, buffered):
        stamp = time.time()
        while True:
            while b"\n" in buffered:
                line, buffered = buffered.split(b"\n", 1)
                if line.strip():
                    try:
                        received = json.loads(line)
                        if isinstance(received, dict):
                            received["_received"] = stamp
                        emit(json.dumps(received))
                    except ValueError:
                        log("not JSON from the desktop: %r" % line[:200])
            try:
                chunk = conn.recv(65536)
            except (OSError, ssl.SSLError):
                chunk = b""
            if not chunk:
                break
            stamp = time.time()
            buffered += chunk
        with self.lock:
            current = self.generation == generation
            if current:
                self.conn = None
        if current:
            try:
                conn.close()
            except OSError:
                pass
            emit("event closed")

    def disconnect(self):
        with self.lock:
            conn, self.conn = self.conn, None
            self.generation += 1
        if conn is None:
            return "error not connected"
        try:
            conn.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        conn.close()
        return "ok disconnected"

    def send(self, kind, body):
        with self.lock:
            conn = self.conn
        if conn is None:
            return "error not connected"
        try:
            conn.sendall(packet(kind, body))
        except (OSError, ssl.SSLError) as e:
            return "error send failed: %s" % e
        return "ok sent %s" % kind

    def pair(self, on):
        body = {"pair": on}
        if self.args.protocol >= 8 and on:
            body["timestamp"] = int(time.time())
        answer = self.send("kdeconnect.pair", body)
        return ("ok pair %s" % ("requested" if on else "cancelled")) if answer.startswith("ok") else answer


def main():
    parser = argparse.ArgumentParser(description="A fake KDE Connect phone (protocol 7 or 8).")
    parser.add_argument("device_id")
    parser.add_argument("--name", default="Pixel 7")
    parser.add_argument("--protocol", type=int, default=7, choices=[7, 8])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=1716)
    parser.add_argument("--state", default=None)
    parser.add_argument("--connect", action="store_true")
    parser.add_argument("--connect-timeout", type=float, default=15)
    parser.add_argument("--no-run-command", action="store_true", help="declare no Run command (the plugin off on the phone)")
    args = parser.parse_args()
    if args.state is None:
        args.state = os.path.join(os.environ.get("TMPDIR", "/tmp"), "fake-phone-" + args.device_id)
    phone = Phone(args)
    emit("ready")
    if args.connect:
        emit(phone.connect())
    for line in sys.stdin:
        words = line.strip().split(" ", 2)
        command = words[0]
        if command == "":
            continue
        if command == "connect":
            emit(phone.connect())
        elif command == "disconnect":
            emit(phone.disconnect())
        elif command == "pair":
            emit(phone.pair(True))
        elif command == "unpair":
            emit(phone.pair(False))
        elif command == "send" and len(words) == 3:
            try:
                body = json.loads(words[2])
            except ValueError as e:
                emit("error the body is not JSON: %s" % e)
                continue
            emit(phone.send(words[1], body))
        elif command == "quit":
            phone.disconnect()
            emit("ok quit")
            return
        else:
            emit("error unknown command %r (connect, pair, unpair, send TYPE JSON, disconnect, quit)" % line.strip())
    phone.disconnect()


if __name__ == "__main__":
    main()
