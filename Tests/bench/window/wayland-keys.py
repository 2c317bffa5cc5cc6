#!/usr/bin/python3
"""Presses keys on GNOME Shell's own Wayland session the way a keyboard does, and says what a
screen reader is told after each. The keys go through a virtual keyboard of the shell's seat
(Clutter's, made through org.gnome.Shell.Eval, which --unsafe-mode opens), so they take the
path a real key takes: the compositor's input handling, then the window that has the focus.
What follows is read from AT-SPI events, never from the clock.

  wayland-keys.py press KEY [ROLE NAME [ROLE NAME]]   presses KEY (Tab, shift+Tab, ctrl+n, Escape, space,
                                          ctrl+comma, F10, …: modifiers then a Clutter key
                                          name), then prints each node that takes the focus
                                          and each window activated (EVENT<TAB>ROLE<TAB>NAME)
                                          until ROLE NAME takes the focus (or is activated),
                                          and the second ROLE NAME too where one is given;
                                          without ROLE NAME, until the first focus
  wayland-keys.py key KEY                 presses KEY; waits for nothing
  wayland-keys.py type TEXT               types TEXT, a key a character; waits for nothing
  wayland-keys.py cycle [shift]           presses Tab (shift+Tab) until the first stop it
                                          met takes the focus again; prints each stop
                                          (ROLE<TAB>NAME) once, in order; exit status 1 when
                                          it never comes back within 40 presses (a trap)

Exit status 1 when what was waited for did not come in 20 s; 2 for a usage error.
"""
import json
import sys

import pyatspi
from gi.repository import Gio, GLib

SECONDS = 20
bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)


def shell(js):
    reply = bus.call_sync("org.gnome.Shell", "/org/gnome/Shell", "org.gnome.Shell", "Eval",
                          GLib.Variant("(s)", (js,)), GLib.VariantType("(bs)"), 0, 10000, None)
    ok, value = reply.unpack()
    if not ok:
        raise SystemExit(f"wayland-keys: the shell refused: {value}")
    return value


def keyvals(spec):
    """ctrl+shift+Tab -> the Clutter key names, modifiers first."""
    mods = {"ctrl": "Control_L", "shift": "Shift_L", "alt": "Alt_L", "super": "Super_L"}
    parts = spec.split("+")
    return [mods.get(p.lower(), p) for p in parts[:-1]] + [parts[-1]]


def press_names(names):
    """The modifiers down, the key down and up, the modifiers up, on one virtual keyboard kept
    by the shell, as a person holds Shift before pressing Tab: each step its own call. All in
    one call, a Shift+Tab was now and then taken as Tab with both cores busy (a Shift+Tab walk
    went back a stop and on again)."""
    def send(steps):
        js = ("const C = imports.gi.Clutter;"
              "global._nudgeKeys ??= (C.get_default_backend ? C.get_default_backend() : global.stage.context.get_backend())"
              ".get_default_seat().create_virtual_device(C.InputDeviceType.KEYBOARD_DEVICE);"
              f"const steps = {json.dumps(steps)}.map(([n, down]) => [n.startsWith('#') ? C.unicode_to_keysym(Number(n.slice(1))) : C['KEY_' + n], down]);"
              "if (steps.some(([k]) => k === undefined)) throw new Error('no such key');"
              "const t = () => global.get_current_time() * 1000;"
              "for (const [k, down] of steps) global._nudgeKeys.notify_keyval(t(), k, down ? C.KeyState.PRESSED : C.KeyState.RELEASED);"
              "'ok'")
        shell(js)

    modifiers, key = names[:-1], names[-1]
    if modifiers:
        send([[m, True] for m in modifiers])
    send([[key, True], [key, False]])
    if modifiers:
        send([[m, False] for m in reversed(modifiers)])


class Heard:
    """The focus and activation events, in order, as a screen reader gets them. Registered once
    per run: the registration reaches the bus a moment after it is made, and a key pressed
    before that would be heard by nobody."""

    def __init__(self):
        self.events = []
        pyatspi.Registry.registerEventListener(self.heard, "object:state-changed:focused", "window:activate",
                                               "object:state-changed:active")
        self.run(lambda: False, 0.3)

    def heard(self, event):
        if event.type.startswith("object:state-changed") and event.detail1 != 1:
            return
        try:
            self.events.append((event.type, event.source.getRoleName(), event.source.name))
        except Exception:
            pass

    @staticmethod
    def run(done, seconds):
        """Runs the loop until done() or `seconds`; True when done."""
        context = GLib.MainContext.default()
        deadline = GLib.get_monotonic_time() + int(seconds * 1_000_000)
        timer = GLib.timeout_add(50, lambda: True)
        try:
            while not done():
                if GLib.get_monotonic_time() > deadline:
                    return False
                context.iteration(True)
            return True
        finally:
            GLib.source_remove(timer)

    def until(self, done):
        """Until done(events). Should the focus event not come in 3 s (the bus can drop one
        under load), the node that has the focus is read and taken as heard, marked "read"."""
        if self.run(lambda: done(self.events), 3):
            return True
        node = focused_node()
        # Taken as heard only if it was not: a slow activation can be what is missing, and
        # the focus it would add again was heard already.
        if node is not None and not any(focused(e) and e[1:] == node for e in self.events):
            print(f"wayland-keys: no focus event in 3 s; the focus read: {node[0]} {node[1]}", file=sys.stderr)
            self.events.append(("read:focused",) + node)
        return self.run(lambda: done(self.events), SECONDS - 3)


def focused_node():
    """The node of the window that has the focus (ROLE, NAME), read from its states."""
    for app in pyatspi.Registry.getDesktop(0):
        if app is None or app.name != "nudge-window":
            continue
        stack = [app]
        while stack:
            node = stack.pop()
            try:
                if node.getState().contains(pyatspi.STATE_FOCUSED) and node is not app:
                    return (node.getRoleName(), node.name)
                stack.extend(child for child in node if child is not None)
            except Exception:
                pass
    return None


def focused(event):
    return event[0].endswith(":focused")


def main(args):
    if len(args) in (2, 4, 6) and args[0] == "press":
        heard = Heard()
        press_names(keyvals(args[1]))
        if len(args) >= 4:
            # Every (role, name) given heard, in any order: a dialog's activation may come
            # after its first field's focus.
            targets = [(args[i], args[i + 1]) for i in range(2, len(args), 2)]
            ok = heard.until(lambda events: all(any(e[1:] == target for e in events) for target in targets))
        else:
            ok = heard.until(lambda events: any(focused(e) for e in events))
        for event in heard.events:
            print("\t".join(event))
        return 0 if ok else 1
    if len(args) == 2 and args[0] == "key":
        press_names(keyvals(args[1]))
        return 0
    if len(args) == 2 and args[0] == "type":
        for ch in args[1]:
            press_names(["#" + str(ord(ch))])
        return 0
    if len(args) in (1, 2) and args[0] == "cycle":
        key = "shift+Tab" if args[1:] == ["shift"] else "Tab"
        stops = []
        heard = Heard()
        for _ in range(40):
            heard.events.clear()
            press_names(keyvals(key))
            # The stop before may be heard again late (a loaded bus): only a focus elsewhere is
            # the key's. A key that leaves the focus where it was is a trap: no stop, and fails.
            before = stops[-1] if stops else None
            def moved(e):
                return focused(e) and e[1:] != before
            if not heard.until(lambda events: any(moved(e) for e in events)):
                print(f"wayland-keys: no focus after {key} at {before or 'the start'}", file=sys.stderr)
                return 1
            stop = [e for e in heard.events if moved(e)][-1][1:]
            if stops and stop == stops[0]:
                return 0
            stops.append(stop)
            print("\t".join(stop), flush=True)
        print(f"wayland-keys: {key} never came back to {stops[0]}", file=sys.stderr)
        return 1
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
