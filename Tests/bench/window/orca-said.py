#!/usr/bin/python3
"""Orca over the window in the Debian 13 root (current-gnome.sh), as Tests/TestSupport/ScreenReader.swift
runs it on this machine: no voice, every line it would speak written to its debug file.

  orca-said.py run PREFS LOG     runs /usr/bin/orca unchanged, its debug file LOG opened line-buffered
                                 (Python holds 8 KB of it back otherwise)
  orca-said.py said LOG OFFSET   waits until LOG has been quiet for a second (Orca logs every step of
                                 every event: a quiet log is a reader with nothing left to say; 30 s at
                                 most), then prints what Orca said after byte OFFSET, a line each; the
                                 keys it echoes are left out (Orca 43 ends them with a space, "tab ";
                                 Orca 48 does not, so the names of the keys current-gnome.sh presses)
"""
import builtins
import os
import re
import sys
import time

# What Orca 48 says of the keys current-gnome.sh presses (its keynames, English).
KEY_ECHOES = {"tab", "left tab", "space", "return", "left control", "left shift", "escape", "n", ","}


def run(prefs, log):
    plain = builtins.open
    builtins.open = lambda f, m="r", *a, **k: plain(f, m, 1) if f == log and m == "w" else plain(f, m, *a, **k)
    sys.argv = ["/usr/bin/orca", "--user-prefs", prefs, "--debug-file", log]
    exec(compile(plain("/usr/bin/orca").read(), "/usr/bin/orca", "exec"), {"__name__": "__main__"})


def said(log, offset):
    deadline, last, since = time.time() + 30, -1, time.time()
    while time.time() < deadline:
        size = os.path.getsize(log) if os.path.exists(log) else 0
        if size != last:
            last, since = size, time.time()
        elif time.time() - since >= 1:
            break
        time.sleep(0.1)
    with open(log, "rb") as f:
        f.seek(offset)
        text = f.read().decode("utf-8", "replace")
    # 'words' {…} (Orca 43) or 'words' (later): the words end at the line's last quote.
    for line in text.splitlines():
        match = re.search(r"SPEECH OUTPUT: '(.*)' ?\{[^{]*\}$", line) or re.search(r"SPEECH OUTPUT: '(.*)'\s*$", line)
        if match and not match.group(1).endswith(" ") and match.group(1) not in KEY_ECHOES:
            print(match.group(1).strip())


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "run":
        run(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 4 and sys.argv[1] == "said":
        said(sys.argv[2], int(sys.argv[3]))
    else:
        sys.exit(__doc__)
