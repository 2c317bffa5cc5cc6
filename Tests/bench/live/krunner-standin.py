#!/usr/bin/python3
"""A stand-in for Nudge's KRunner runner (Tests/bench/live/krunner-try.sh): owns
io.github.nudge.Nudge on the session bus and serves org.kde.krunner1 at
/io/github/nudge/Nudge/Runner. Any query holding "mum" gets two matches; every call is
logged to LOG, one line each: METHOD<TAB>ARGS…

  krunner-standin.py LOG
"""
import sys
import time

from gi.repository import Gio, GLib

NAME = "io.github.nudge.Nudge"
PATH = "/io/github/nudge/Nudge/Runner"
XML = """<node><interface name="org.kde.krunner1">
  <method name="Actions"><arg type="a(sss)" direction="out"/></method>
  <method name="Match"><arg type="s" direction="in"/><arg type="a(sssida{sv})" direction="out"/></method>
  <method name="Run"><arg type="s" direction="in"/><arg type="s" direction="in"/></method>
  <method name="Config"><arg type="a{sv}" direction="out"/></method>
  <method name="Teardown"/>
</interface></node>"""

ACTIONS = [("snooze", "Snooze 10 min", "alarm-symbolic"), ("done", "Done", "checkmark")]

log = open(sys.argv[1], "a", buffering=1)


def note(*fields):
    log.write("\t".join(str(f) for f in fields) + "\n")


def matches(query):
    if "mum" not in query.lower():
        return []
    # (id, text, icon, type/category relevance, relevance, properties). KF5 reads the int
    # as the match's type (100 = ExactMatch), KF6 as its category relevance (0-100).
    return [
        ("reminder:call-mum", "Remind me: Call mum — tomorrow at 18:00", "io.github.nudge.Nudge", 100, 1.0,
         {"subtext": GLib.Variant("s", "Nudge · new reminder"), "actions": GLib.Variant("as", ["snooze", "done"])}),
        ("alert:4f2a", "Call mum", "io.github.nudge.Nudge", 70, 0.8,
         {"subtext": GLib.Variant("s", "Nudge · due today at 18:00"), "actions": GLib.Variant("as", ["done"])}),
    ]


def call(connection, sender, path, interface, method, params, invocation):
    args = params.unpack()
    note(method, *args)
    if method == "Actions":
        invocation.return_value(GLib.Variant("(a(sss))", (ACTIONS,)))
    elif method == "Match":
        invocation.return_value(GLib.Variant("(a(sssida{sv}))", (matches(args[0]),)))
    elif method == "Config":
        invocation.return_value(GLib.Variant("(a{sv})", ({},)))
    else:
        invocation.return_value(None)


def main():
    bus = Gio.bus_get_sync(Gio.BusType.SESSION)
    info = Gio.DBusNodeInfo.new_for_xml(XML).interfaces[0]
    bus.register_object(PATH, info, call, None, None)
    loop = GLib.MainLoop()
    Gio.bus_own_name_on_connection(bus, NAME, Gio.BusNameOwnerFlags.NONE,
                                   lambda *a: note("owned", NAME), lambda *a: loop.quit())
    loop.run()


if __name__ == "__main__":
    main()
