#!/usr/bin/python3
"""Prints nudge-window's AT-SPI tree as a screen reader meets it, one node a line, indented
by depth: ROLE<TAB>NAME. The application's own children (its top-level windows) are at depth
0; a dialog inside the window (libadwaita 1.5's AdwDialog) is deeper, under the window's frame.
"""
import sys

import pyatspi


def walk(node, depth):
    if node is None or depth > 40:
        return
    try:
        attributes = [a for a in node.getAttributes() if not a.startswith("toolkit:")]
    except Exception:
        attributes = []
    print(f"{'  ' * depth}{node.getRoleName()}\t{node.name}" + (f"\t{' '.join(attributes)}" if attributes else ""))
    for child in node:
        walk(child, depth + 1)


for app in pyatspi.Registry.getDesktop(0):
    if app is not None and app.name == "nudge-window":
        for window in app:
            walk(window, 0)
        sys.exit(0)
print("atspi-tree: nudge-window is not on the accessibility bus", file=sys.stderr)
sys.exit(1)
