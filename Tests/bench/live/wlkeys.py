#!/usr/bin/python3
"""Presses keys on a KWin session the way a keyboard does, through KWin's fake-input
Wayland protocol (org_kde_kwin_fake_input, the one KDE Connect's remote input uses): the
key goes through KWin's input handling to the window that has the keyboard focus. KWin
lists the protocol only to clients it trusts, or to all when it runs with
KWIN_WAYLAND_NO_PERMISSION_CHECKS=1.

  wlkeys.py KEY…     KEY: Return, Down, Up, Tab, Escape, or an evdev key code

Speaks the Wayland wire protocol itself (no pywayland here). Exit status 1 when the
compositor does not offer the protocol.
"""
import os
import socket
import struct
import sys
import time

KEYS = {"Return": 28, "Escape": 1, "Tab": 15, "Up": 103, "Down": 108, "Left": 105, "Right": 106}


class Wayland:
    def __init__(self):
        path = os.path.join(os.environ["XDG_RUNTIME_DIR"], os.environ.get("WAYLAND_DISPLAY", "wayland-0"))
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.next_id = 2
        self.buffer = b""

    def new_id(self):
        self.next_id += 1
        return self.next_id - 1

    @staticmethod
    def string(s):
        data = s.encode() + b"\0"
        return struct.pack("=I", len(data)) + data + b"\0" * (-len(data) % 4)

    def send(self, obj, opcode, payload=b""):
        self.sock.sendall(struct.pack("=II", obj, (8 + len(payload)) << 16 | opcode) + payload)

    def events(self):
        """(object, opcode, payload) for each event, until the socket has none for now."""
        while True:
            while len(self.buffer) >= 8:
                obj, word = struct.unpack_from("=II", self.buffer)
                size = word >> 16
                if len(self.buffer) < size:
                    break
                payload, self.buffer = self.buffer[8:size], self.buffer[size:]
                yield obj, word & 0xFFFF, payload
            chunk = self.sock.recv(65536)
            if not chunk:
                return
            self.buffer += chunk

    def roundtrip(self, on_event=lambda *a: None):
        callback = self.new_id()
        self.send(1, 0, struct.pack("=I", callback))  # wl_display.sync
        for obj, opcode, payload in self.events():
            if obj == callback and opcode == 0:
                return
            if obj == 1 and opcode == 0:  # wl_display.error
                raise SystemExit("wayland error: %r" % payload)
            on_event(obj, opcode, payload)


def main():
    codes = [KEYS[k] if k in KEYS else int(k) for k in sys.argv[1:]]
    wl = Wayland()
    registry = wl.new_id()
    wl.send(1, 1, struct.pack("=I", registry))  # wl_display.get_registry
    found = {}

    def on_global(obj, opcode, payload):
        if obj == registry and opcode == 0:
            name, length = struct.unpack_from("=II", payload)
            interface = payload[8:8 + length - 1].decode()
            version = struct.unpack_from("=I", payload, 8 + length + (-length % 4))[0]
            found[interface] = (name, version)

    wl.roundtrip(on_global)
    if "org_kde_kwin_fake_input" not in found:
        print("wlkeys: the compositor offers no org_kde_kwin_fake_input", file=sys.stderr)
        return 1
    name, version = found["org_kde_kwin_fake_input"]
    version = min(version, 4)  # keyboard_key came in 4
    fake = wl.new_id()
    wl.send(registry, 0, struct.pack("=I", name) + wl.string("org_kde_kwin_fake_input") + struct.pack("=II", version, fake))
    wl.send(fake, 0, wl.string("Nudge tests") + wl.string("presses keys for a test"))  # authenticate
    wl.roundtrip()
    for code in codes:
        for state in (1, 0):
            wl.send(fake, 10, struct.pack("=II", code, state))  # keyboard_key
            wl.roundtrip()
            time.sleep(0.03)
    return 0


if __name__ == "__main__":
    sys.exit(main())
