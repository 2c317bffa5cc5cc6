#!/usr/bin/python3
"""Reads and works KRunner's results list through AT-SPI, as a screen reader or a person
with a keyboard reaches it (Tests/bench/live/krunner.sh).

  krunner-atspi.py matches            one line per match shown: TEXT<TAB>SUBTEXT<TAB>ACTION|ACTION…
  krunner-atspi.py index TEXT         the 0-based row of the match whose text is TEXT
  krunner-atspi.py press TEXT         activates that match through AT-SPI (KRunner 5.27 and
                                      6.3 give a row no action: krunner.sh uses the keyboard)
  krunner-atspi.py action TEXT LABEL  presses the action button LABEL on that match
  krunner-atspi.py query              the text in the search field
  krunner-atspi.py extents            the window's X Y W H as AT-SPI has them
  krunner-atspi.py shown              true while KRunner's window is on screen, else false
  krunner-atspi.py tree               the whole tree with roles, states and actions

Exit status 1 when KRunner, the match or the button is not there.
"""
import sys

import pyatspi

# The walk over the tree is the notification servers' reader's (atspi.py, beside this).
from atspi import walk

BUTTONS = ("push button", "button")


def application():
    for app in pyatspi.Registry.getDesktop(0):
        if app is not None and app.name == "krunner":
            return app
    return None


def actions(node):
    try:
        a = node.queryAction()
        return [a.getName(i) for i in range(a.nActions)]
    except NotImplementedError:
        return []


def rows(app):
    """(row, text, subtext, [buttons]) per match, in the list's order. KRunner 5.27 (Milou):
    a `list item` named after the match's text, holding a label (the category, named on
    the first row of each), and a nameless `list item` with the text's and the subtext's
    labels and a `push button` per action. KRunner 6.3: the same labels and buttons (role
    `button`) right in the named `list item`. Both show the subtext and the action buttons
    of the selected row only (the others' subtext label is empty, their buttons hidden)."""
    found = []
    for window in app:
        if window is None:
            continue
        for node, _ in walk(window):
            if node.getRoleName() != "list item" or not node.name:
                continue
            labels = [n.name for n, _ in walk(node) if n.getRoleName() == "label"]
            buttons = [n for n, _ in walk(node) if n.getRoleName() in BUTTONS and n.name]
            text = node.name
            # The subtext is the label after the text's own.
            sub = ""
            if text in labels:
                after = labels[labels.index(text) + 1:]
                sub = after[0] if after else ""
            found.append((node, text, sub, buttons))
    return found


def main():
    command = sys.argv[1]
    app = application()
    if app is None:
        return 1
    if command == "tree":
        for node, depth in walk(app):
            states = ",".join(pyatspi.stateToString(s) for s in node.getState().getStates()
                              if s in (pyatspi.STATE_FOCUSED, pyatspi.STATE_SELECTED, pyatspi.STATE_SHOWING,
                                       pyatspi.STATE_FOCUSABLE, pyatspi.STATE_SELECTABLE))
            print("  " * depth + node.getRoleName(), repr(node.name), states, actions(node))
        return 0
    if command == "matches":
        for _, text, sub, buttons in rows(app):
            print(text + "\t" + sub + "\t" + "|".join(b.name for b in buttons))
        return 0
    if command == "shown":
        shown = any(w is not None and w.getState().contains(pyatspi.STATE_SHOWING) for w in app)
        print("true" if shown else "false")
        return 0
    if command == "extents":
        for window in app:
            e = window.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
            print(e.x, e.y, e.width, e.height)
            return 0
        return 1
    if command == "query":
        for node, _ in walk(app):
            if node.getRoleName() in ("text", "entry"):
                t = node.queryText()
                print(t.getText(0, -1))
                return 0
        return 1
    if command == "index":
        for i, (_, text, _, _) in enumerate(rows(app)):
            if text == sys.argv[2]:
                print(i)
                return 0
        return 1
    if command in ("press", "action"):
        for row, text, _, buttons in rows(app):
            if text != sys.argv[2]:
                continue
            if command == "action":
                for b in buttons:
                    if b.name == sys.argv[3]:
                        b.queryAction().doAction(0)
                        return 0
                return 1
            names = actions(row)
            for wanted in ("press", "Press", "activate", "Activate", "click"):
                if wanted in names:
                    row.queryAction().doAction(names.index(wanted))
                    return 0
            print("no action to run among", names, file=sys.stderr)
            return 1
        return 1
    return 2


if __name__ == "__main__":
    sys.exit(main())
