#!/usr/bin/python3
"""Drives Nudge's window through AT-SPI, as a screen reader or a person with a keyboard
reaches it: controls are found by role and accessible name, never by screen coordinates
(GTK 4.8 reports wrong ones), and acted on through their own actions and interfaces.

  atspi-window.py nodes                       one line per node: ROLE<TAB>NAME<TAB>STATE
                                              (STATE: checked, unchecked or -)
  atspi-window.py do ROLE NAME ACTION         runs the action (toggle, click) of the first
                                              node with that role and name
  atspi-window.py wait ROLE NAME [CONDITION] [SECONDS]
                                              waits until such a node is there (CONDITION:
                                              present, gone, checked, unchecked; 30 s)
  atspi-window.py press TEXT                  clicks the first push button whose name holds
                                              TEXT (a toast's button is found so, wherever
                                              the toast sits)
  atspi-window.py find TEXT [SECONDS]         waits until a node's name contains TEXT
  atspi-window.py set ROLE NAME TEXT          replaces the text of an editable node
                                              (an entry, through EditableText)
  atspi-window.py value ROLE NAME NUMBER      sets a spin button's value (through Value)
  atspi-window.py read ROLE NAME              prints a node's text, or its value
  atspi-window.py describe ROLE NAME          prints a node's states, actions and
                                              description
  atspi-window.py focused                     prints the focused node: ROLE<TAB>NAME
  atspi-window.py extents ROLE NAME           prints X Y WIDTH HEIGHT of each such node,
                                              a line each, in its window's coordinates
                                              (GTK 4.8's screen ones are wrong; these
                                              compare nodes of one window)
  atspi-window.py listen SECONDS [ROLE NAME]  prints, for SECONDS at most, what a screen
                                              reader is told: each node that takes the focus
                                              and each window activated, EVENT<TAB>ROLE<TAB>
                                              NAME; it ends once ROLE NAME takes the focus
  atspi-window.py rows                        prints, for each table cell of the list,
                                              its X Y WIDTH HEIGHT, then its labels'
                                              NAME<TAB>X Y WIDTH HEIGHT, tab between
  atspi-window.py audit                       prints every node a keyboard or a screen
                                              reader can act on (focusable, or with an
                                              action) that has no name, and every node
                                              named by its class (GtkListItemWidget):
                                              ROLE<TAB>NAME<TAB>WHY;
                                              exit status 1 when there is one
  atspi-window.py audit TEXT                  the same, over a tree that holds a node
                                              whose name contains TEXT (a toast, which
                                              goes by itself); exit status 3 when none

The application is found by its accessible name, nudge-window. Exit status 1 when the
node is not there (in time) or the action failed; 2 for a usage error.
"""
import sys
import time

import pyatspi
from gi.repository import Atspi, Gio, GLib

STATE_COUNT = int(Atspi.StateType.LAST_DEFINED)

APP = "nudge-window"


def application():
    for app in pyatspi.Registry.getDesktop(0):
        if app is not None and app.name == APP:
            return app
    return None


def walk(node, depth=0):
    yield node
    if depth > 40:
        return
    for child in node:
        if child is not None:
            yield from walk(child, depth + 1)


class Remote:
    """A node of the window's tree, read the cheap way: which nodes there are, by asking each
    parent for its children (GetChildren: one call a parent, as the walk's order goes), and
    what each is (role, name, interfaces) from GTK's AT-SPI cache (GetItems: the whole tree
    in a call). pyatspi's walk asked several calls of every node (408 nodes took 1.5 s on a
    loaded machine), again at every look of a wait: the driver, the window and the bus
    were busy for the whole wait, and the suite's two cores with them. The cache alone is
    not the tree: it keeps nodes that have gone (a closed menu's items) and lacks nodes no
    one has asked for yet."""

    def __init__(self, tree, bus, path, item):
        self.tree, self.bus, self.path = tree, bus, path
        _, _, _, self.index, self.child_count, self.interfaces, self.name, role, self.description, _ = item
        try:
            self.role = Atspi.role_get_name(Atspi.Role(role))
        except ValueError:
            self.role = str(role)
        self.children = []

    def call(self, interface, method, arguments=None, reply=None):
        try:
            return self.tree.connection.call_sync(self.bus, self.path, interface, method, arguments,
                                                  GLib.VariantType(reply) if reply else None, 0, 10000, None).unpack()
        except GLib.Error as error:
            if any(word in str(error) for word in ("UnknownMethod", "UnknownInterface", "UnknownObject", "No such interface")):
                raise NotImplementedError(str(error))
            raise

    def getRoleName(self):
        return self.role

    def getState(self):
        return RemoteState(self.call("org.a11y.atspi.Accessible", "GetState", None, "(au)")[0])

    def __iter__(self):
        return iter(self.children)

    def queryAction(self):
        return RemoteAction(self)

    def queryComponent(self):
        return RemoteComponent(self)

    def queryEditableText(self):
        return RemoteEditable(self)

    def queryText(self):
        return RemoteText(self)

    def queryValue(self):
        return RemoteValue(self)


class RemoteState:
    def __init__(self, words):
        self.words = words

    def contains(self, state):
        state = int(state)
        return state // 32 < len(self.words) and bool(self.words[state // 32] >> (state % 32) & 1)

    def getStates(self):
        return [Atspi.StateType(n) for n in range(min(32 * len(self.words), STATE_COUNT)) if self.contains(n)]


class RemoteAction:
    def __init__(self, node):
        self.node = node
        # GetActions gives the localized names; GetName the names actions are asked by.
        count = len(node.call("org.a11y.atspi.Action", "GetActions", None, "(a(sss))")[0])
        self.names = [node.call("org.a11y.atspi.Action", "GetName", GLib.Variant("(i)", (i,)), "(s)")[0]
                      for i in range(count)]
        self.nActions = count

    def getName(self, index):
        return self.names[index]

    def doAction(self, index):
        return self.node.call("org.a11y.atspi.Action", "DoAction", GLib.Variant("(i)", (index,)), "(b)")[0]


class RemoteComponent:
    def __init__(self, node):
        self.node = node

    def getExtents(self, coords):
        x, y, width, height = self.node.call("org.a11y.atspi.Component", "GetExtents",
                                             GLib.Variant("(u)", (int(coords),)), "((iiii))")[0]
        return type("Extents", (), {"x": x, "y": y, "width": width, "height": height})


class RemoteEditable:
    def __init__(self, node):
        self.node = node

    def setTextContents(self, text):
        return self.node.call("org.a11y.atspi.EditableText", "SetTextContents", GLib.Variant("(s)", (text,)), "(b)")[0]


class RemoteText:
    def __init__(self, node):
        self.node = node
        self.characterCount = node.call("org.freedesktop.DBus.Properties", "Get",
                                        GLib.Variant("(ss)", ("org.a11y.atspi.Text", "CharacterCount")), "(v)")[0]

    def getText(self, start, end):
        return self.node.call("org.a11y.atspi.Text", "GetText", GLib.Variant("(ii)", (start, end)), "(s)")[0]


class RemoteValue:
    def __init__(self, node):
        self.node = node

    @property
    def currentValue(self):
        return self.node.call("org.freedesktop.DBus.Properties", "Get",
                              GLib.Variant("(ss)", ("org.a11y.atspi.Value", "CurrentValue")), "(v)")[0]

    @currentValue.setter
    def currentValue(self, value):
        self.node.call("org.freedesktop.DBus.Properties", "Set",
                       GLib.Variant("(ssv)", ("org.a11y.atspi.Value", "CurrentValue", GLib.Variant("d", value))))


class Tree:
    """The window's tree as it is now (see Remote)."""
    connection = None
    ROOT = "/org/a11y/atspi/accessible/root"

    def __init__(self, app):
        if Tree.connection is None:
            session = Gio.bus_get_sync(Gio.BusType.SESSION)
            address = session.call_sync("org.a11y.Bus", "/org/a11y/bus", "org.a11y.Bus", "GetAddress",
                                        None, None, 0, 10000, None).unpack()[0]
            Tree.connection = Gio.DBusConnection.new_for_address_sync(
                address, Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION,
                None, None)
        self.bus = app.app.bus_name
        items = self.items()
        # The live structure, parent by parent. Asking realizes the children, so the cache
        # then has them.
        structure, order = {}, []

        def visit(path, depth):
            order.append(path)
            # Every node is asked: the cache's child counts are its own (the application's
            # says 0).
            if depth > 40:
                structure[path] = []
                return
            kids = self.connection.call_sync(self.bus, path, "org.a11y.atspi.Accessible", "GetChildren", None,
                                             GLib.VariantType("(a(so))"), 0, 10000, None).unpack()[0]
            structure[path] = [kid for bus, kid in kids if bus == self.bus]
            for kid in structure[path]:
                visit(kid, depth + 1)
        visit(self.ROOT, 0)
        if any(path not in items for path in order):
            items = self.items()
        self.ordered = []
        by_path = {}
        for path in order:
            item = items.get(path)
            if item is None:
                continue
            node = Remote(self, self.bus, path, item)
            by_path[path] = node
            self.ordered.append(node)
        for path, kids in structure.items():
            if path in by_path:
                by_path[path].children = [by_path[kid] for kid in kids if kid in by_path]

    def items(self):
        found = self.connection.call_sync(self.bus, "/org/a11y/atspi/cache", "org.a11y.atspi.Cache", "GetItems",
                                          None, None, 0, 10000, None).unpack()[0]
        return {item[0][1]: item for item in found}


# Whether GTK's cache answers (GTK 4 has it); where not, pyatspi walks.
CACHE = True


def nodes():
    """The window's nodes, read afresh at each look (see Tree); walked through pyatspi where
    the toolkit has no cache to read (the cache of pyatspi's own can lag the window)."""
    global CACHE
    app = application()
    if app is None:
        return []
    if CACHE:
        try:
            return Tree(app).ordered
        except GLib.Error as error:
            if "UnknownMethod" not in str(error) and "UnknownObject" not in str(error):
                raise
            CACHE = False
    try:
        app.clearCache()
    except Exception:
        pass
    return list(walk(app))


def state(node):
    states = node.getState()
    if node.getRoleName() in ("check box", "toggle button", "switch", "radio button"):
        return "checked" if states.contains(pyatspi.STATE_CHECKED) else "unchecked"
    if node.getRoleName() == "push button":
        # GTK 4.8 gives a toggle button the button's role, pressed while down.
        return "checked" if states.contains(pyatspi.STATE_PRESSED) else "unchecked"
    return "-"


# Roles newer AT-SPI stacks name apart: a GtkSwitch is a "check box" to Debian 12's and 13's, a
# "switch" to sid's (at-spi2-core 2.62, GTK 4.24); asked for as either, it is found.
SAME_ROLES = {"check box": {"check box", "switch"}, "switch": {"check box", "switch"}}


# Inner boxes of GTK 4.8's and libadwaita 1.2's own widgets still named by their class: a
# toast's (renamed, but libadwaita's toast leaves the AT-SPI tree as it goes) (issue 52).
NOT_NAMED_YET = {"AdwToastWidget"}


def matching(role, name):
    roles = SAME_ROLES.get(role, {role})
    return [n for n in nodes() if n.getRoleName() in roles and n.name == name]


def scene():
    """What a failure is met with: the windows and dialogs, their buttons, the focus."""
    parts = []
    try:
        for node in nodes():
            role = node.getRoleName()
            states = node.getState()
            if role in ("frame", "dialog", "alert", "window") or (role == "push button" and node.name):
                parts.append(f"{role}:{node.name}")
            if states.contains(pyatspi.STATE_FOCUSED):
                parts.append(f"focus={role}:{node.name}")
    except Exception as error:
        parts.append(f"tree unreadable: {error!r}")
    return "scene: " + " | ".join(parts)


def until(seconds, condition):
    """Whether condition() comes true within seconds. Each look walks the window's tree, which
    costs this driver, the window and the bus about as much as the walk takes: the pause after
    a look is at least as long as the look, and a tenth of the time waited so far (within
    20-250 ms), so that a long wait is not three processes busy the whole time."""
    start = time.monotonic()
    deadline = start + seconds
    while True:
        looked = time.monotonic()
        try:
            if condition():
                return True
        except Exception:
            pass
        now = time.monotonic()
        if now >= deadline:
            return False
        time.sleep(min(max(now - looked, (now - start) / 10, 0.02), 0.25, max(deadline - now, 0.001)))


def perform(node, action):
    """Runs a node's action by its name; whether it had one. An action asked for whose answer
    did not come in time counts as done: the window has it and does it when it gets to it, and
    asking again would do it twice (a toggle clicked twice is back where it was)."""
    actions = node.queryAction()
    for index in range(actions.nActions):
        if actions.getName(index) == action:
            try:
                actions.doAction(index)
            except GLib.Error as error:
                if not error.matches(Gio.io_error_quark(), Gio.IOErrorEnum.TIMED_OUT):
                    raise
                print(f"atspi-window: {action} asked, not answered in time: {error.message}", file=sys.stderr)
            return True
    return False


def main(args):
    if not args:
        print(__doc__, file=sys.stderr)
        return 2
    command = args[0]
    if command == "nodes":
        for node in nodes():
            print(f"{node.getRoleName()}\t{node.name}\t{state(node)}")
        return 0
    if command == "do" and len(args) == 4:
        role, name, action = args[1:]
        seen = {"nodes": 0, "error": None}

        def run():
            found = matching(role, name)
            seen["nodes"] = len(found)
            for node in found:
                # A node on its way out (its dialog closing) can fail; the next one may be it.
                try:
                    if perform(node, action):
                        return True
                except Exception as error:
                    seen["error"] = error
            return False
        # The control may still be on its way (a row added a moment ago).
        if not until(30, run):
            print(f"atspi-window: no {role} named {name!r} with the action {action} "
                  f"({seen['nodes']} so named, last error: {seen['error']!r}); {scene()}", file=sys.stderr)
            return 1
        return 0
    if command == "wait" and 3 <= len(args) <= 5:
        role, name = args[1], args[2]
        condition = args[3] if len(args) > 3 else "present"
        seconds = float(args[4]) if len(args) > 4 else 30.0
        checks = {
            "present": lambda: bool(matching(role, name)),
            "gone": lambda: not matching(role, name),
            "checked": lambda: any(state(n) == "checked" for n in matching(role, name)),
            "unchecked": lambda: any(state(n) == "unchecked" for n in matching(role, name)),
        }
        if condition not in checks:
            return 2
        if not until(seconds, checks[condition]):
            print(f"atspi-window: no {role} named {name!r} {condition} within {seconds} s; {scene()}", file=sys.stderr)
            return 1
        return 0
    if command == "press" and len(args) == 2:
        def press():
            return any(perform(node, "click") for node in nodes()
                       if node.getRoleName() == "push button" and args[1] in (node.name or ""))
        if not until(30, press):
            print(f"atspi-window: no push button naming {args[1]!r}", file=sys.stderr)
            return 1
        return 0
    if command == "find" and 2 <= len(args) <= 3:
        text = args[1]
        seconds = float(args[2]) if len(args) > 2 else 30.0
        hit = [None]

        def look():
            for node in nodes():
                if text in (node.name or ""):
                    hit[0] = node
                    return True
            return False
        if not until(seconds, look):
            print(f"atspi-window: nothing named with {text!r} within {seconds} s", file=sys.stderr)
            return 1
        print(f"{hit[0].getRoleName()}\t{hit[0].name}")
        return 0
    if command == "audit" and len(args) in (1, 2):
        import re
        bad = 0
        tree = nodes()
        if len(args) == 2 and not any(args[1] in (node.name or "") for node in tree):
            print(f"atspi-window: nothing named with {args[1]!r} to audit beside", file=sys.stderr)
            return 3
        for node in tree:
            role = node.getRoleName()
            name = (node.name or "").strip()
            # Every node a screen reader reads says its name, a box's too (issue 52: AdwGizmo,
            # AdwWindowTitle, AdwClampScrollable were missed): none is its class's, but for
            # the boxes GTK 4.8 and libadwaita 1.2 build inside their own widgets that Nudge
            # does not name yet (listed here, to be named and taken off).
            if re.fullmatch(r"(Gtk|Adw|Gdk)[A-Z]\w*", name) and name not in NOT_NAMED_YET:
                bad += 1
                print(f"{role}\t{name}\tnamed by its class")
                continue
            # Layout a screen reader passes over (GTK's and libadwaita's own boxes), unnamed.
            if role in ("application", "frame", "dialog", "window", "filler", "panel", "separator"):
                continue
            try:
                actions = node.queryAction().nActions
            except NotImplementedError:
                actions = 0
            acts = node.getState().contains(pyatspi.STATE_FOCUSABLE) or actions > 0
            why = "no name" if acts and not name else None
            if why:
                bad += 1
                print(f"{role}\t{name}\t{why}")
        return 1 if bad else 0
    if command == "extents" and len(args) == 3:
        found = matching(args[1], args[2])
        for node in found:
            e = node.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
            print(f"{e.x} {e.y} {e.width} {e.height}")
        return 0 if found else 1
    if command == "listen" and len(args) in (2, 4):
        from gi.repository import GLib
        last = tuple(args[2:4]) if len(args) == 4 else None

        def heard(event):
            if event.type.startswith("object:state-changed") and event.detail1 != 1:
                return
            try:
                role, name = event.source.getRoleName(), event.source.name
            except Exception:
                return
            print(f"{event.type}\t{role}\t{name}", flush=True)
            if event.type.endswith(":focused") and (role, name) == last:
                pyatspi.Registry.stop()
        pyatspi.Registry.registerEventListener(heard, "object:state-changed:focused", "window:activate",
                                               "object:state-changed:active")
        GLib.timeout_add(int(float(args[1]) * 1000), lambda: pyatspi.Registry.stop() or False)
        print("listening", flush=True)
        pyatspi.Registry.start()
        return 0
    if command == "rows" and len(args) == 1:
        def box(node):
            e = node.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
            return f"{e.x} {e.y} {e.width} {e.height}"
        for cell in nodes():
            if cell.getRoleName() != "table cell":
                continue
            labels = [n for n in walk(cell) if n.getRoleName() == "label" and n.name]
            print("\t".join([box(cell)] + [f"{n.name}\t{box(n)}" for n in labels]))
        return 0
    if command == "focused" and len(args) == 1:
        for node in nodes():
            if node.getState().contains(pyatspi.STATE_FOCUSED):
                print(f"{node.getRoleName()}\t{node.name}")
                return 0
        return 1
    if command == "describe" and len(args) == 3:
        for node in matching(args[1], args[2]):
            actions = node.queryAction()
            print("states:", " ".join(pyatspi.stateToString(s) for s in node.getState().getStates()))
            print("actions:", " ".join(actions.getName(i) for i in range(actions.nActions)))
            print("description:", node.description or "")
            return 0
        return 1
    if command in ("set", "value", "read") and len(args) == (3 if command == "read" else 4):
        role, name = args[1], args[2]
        out = []

        def act():
            for node in matching(role, name):
                if command == "set":
                    editable = node.queryEditableText()
                    editable.setTextContents(args[3])
                elif command == "value":
                    node.queryValue().currentValue = float(args[3])
                else:
                    try:
                        text = node.queryText()
                        out.append(text.getText(0, text.characterCount))
                    except NotImplementedError:
                        out.append(str(node.queryValue().currentValue))
                return True
            return False
        if not until(30, act):
            print(f"atspi-window: no {role} named {name!r} to {command}", file=sys.stderr)
            return 1
        if out:
            print(out[0])
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
