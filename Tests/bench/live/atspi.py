#!/usr/bin/python3
"""Reads and presses a notification server's pop-ups through AT-SPI, as a screen reader
or a person with a keyboard would reach them (Tests/bench/live-session's adapters).

  atspi.py popups APP           one line per pop-up: TITLE<TAB>BUTTON|BUTTON|… (reading order)
  atspi.py press APP LABEL      presses the button LABEL on the newest pop-up holding one
  atspi.py body APP             clicks the newest pop-up's body (swaync: a button of its own)
  atspi.py close APP            presses the newest pop-up's close button
  atspi.py tree APP             the whole tree, for finding one's way

APP is the application's accessible name as the registry lists it. Exit status 1 when the
application, the pop-up or the button is not there.
"""
import sys

import pyatspi

WINDOW_BUTTONS = {"Configure", "Minimize", "Close"}


def application(name):
    for app in pyatspi.Registry.getDesktop(0):
        if app is not None and app.name == name:
            return app
    return None


def walk(node, depth=0):
    yield node, depth
    if depth > 30:
        return
    for child in node:
        if child is not None:
            yield from walk(child, depth + 1)


def place(node):
    """Where a node is, for reading order: top to bottom, then left to right."""
    try:
        extents = node.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
        return (extents.y, extents.x)
    except Exception:
        return (0, 0)


def popups(app):
    """(node, title, [buttons]) for each pop-up, in the order the tree has them. Plasma:
    a window holding a `notification`, whose name is the title. swaync: a `list item`,
    whose first button is the body, named after the title."""
    found = []
    for window in app:
        if window is None:
            continue
        # Plasma 6's applet window ("Notifications") lists the history, and the pop-ups on
        # screen again once the desktop entry resolves: only the pop-ups count.
        if app.name == "plasmawindowed" and window.name == "Notifications":
            continue
        items = [node for node, _ in walk(window) if node.getRoleName() == "list item"]
        for popup in items or [window]:
            title, buttons = None, []
            for node, _ in walk(popup):
                role = node.getRoleName()
                if role == "notification" and title is None:
                    title = node.name
                elif role in ("push button", "button") and node.name and node.name not in WINDOW_BUTTONS:
                    if items and title is None:
                        title = node.name  # swaync's body
                        continue
                    buttons.append(node)
            if title is not None:
                buttons.sort(key=place)
                found.append((popup, title, buttons))
    return found


def buttons_of(popup):
    return [node for node, _ in walk(popup) if node.getRoleName() in ("push button", "button")]


def main():
    command, name = sys.argv[1], sys.argv[2]
    app = application(name)
    if app is None:
        return 1 if command != "popups" else 0
    if command == "popups":
        for _, title, buttons in popups(app):
            print(title + "\t" + "|".join(b.name for b in buttons))
        return 0
    shown = popups(app)
    if command == "press":
        label = sys.argv[3]
        for popup, _, _ in reversed(shown):
            for node in buttons_of(popup):
                if node.name == label:
                    node.queryAction().doAction(0)
                    return 0
        return 1
    if command in ("body", "close"):
        if not shown:
            return 1
        popup, title, _ = shown[-1]
        for node in buttons_of(popup):
            if command == "body" and node.name == title or command == "close" and node.name in ("", "Close"):
                node.queryAction().doAction(0)
                return 0
        return 1
    if command == "tree":
        for node, depth in walk(app):
            print("  " * depth + node.getRoleName(), repr(node.name))
        return 0
    return 2


if __name__ == "__main__":
    sys.exit(main())
