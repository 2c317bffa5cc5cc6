#!/bin/bash
# Nudge's window on Wayland, under GNOME Shell 48's own session (GNOME 49 and later have no X11 session):
# run inside a copy of the Debian 13 root as an unprivileged user (the shell will not run as root):
#   scripts/desktop-root run trixie --bind WORK -- runuser -u nudgelive -- setsid -w wayland-gnome.sh WORK
# WORK as for current-gnome.sh. The shell runs headless (--virtual-monitor) with --unsafe-mode, on a session
# bus, an accessibility bus and a system bus of its own. Keys go through a virtual keyboard of the shell's seat
# (wayland-keys.py), so they take a real key's path; what a screen reader is told is read from AT-SPI.
# The keyboard script is the one the X11 tests drive: the main page by Tab and Shift+Tab (each a cycle that
# comes back: no trap), a delete by Space (the toast takes the focus and says what happened), the form (Ctrl+N:
# announced, its fields say their focus; a half-typed form asks before Escape throws it away), Settings
# (Ctrl+comma, Escape), Ctrl+Q. Prints KEY=VALUE lines prefixed wayland.; what was heard is in WORK/out/wayland.
set -u
work=$1 out=$1/out/wayland
mkdir -p "$out"
export HOME=/tmp/nudge-wayland/home XDG_RUNTIME_DIR=/tmp/nudge-wayland/run XDG_DATA_HOME=/tmp/nudge-wayland/home/data XDG_CONFIG_HOME=/tmp/nudge-wayland/home/config
export XDG_CACHE_HOME=/tmp/nudge-wayland/home/cache XDG_DATA_DIRS=/tmp/nudge-wayland/share:/usr/local/share:/usr/share TZ=UTC LANG=C.UTF-8
mkdir -p "$HOME" "$XDG_DATA_HOME" "$XDG_CONFIG_HOME" /tmp/nudge-wayland/share/icons/hicolor/scalable/apps && mkdir -m 700 "$XDG_RUNTIME_DIR"
cp "$work/io.github.nudge.Nudge.svg" /tmp/nudge-wayland/share/icons/hicolor/scalable/apps/
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; wait' EXIT
# bus NAME: a private bus (the system one too: GNOME Shell 48 will not start without one).
bus() {
    cat > "/tmp/nudge-wayland/$1.conf" <<CONF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path=$XDG_RUNTIME_DIR/$1</listen>
  <auth>EXTERNAL</auth>
  $2
  <policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy>
</busconfig>
CONF
    dbus-daemon --config-file="/tmp/nudge-wayland/$1.conf" --nofork > /dev/null 2>&1 & pids+=($!)
    for _ in $(seq 200); do [ -S "$XDG_RUNTIME_DIR/$1" ] && break; sleep 0.05; done
}
bus system ""
bus bus "<standard_session_servicedirs/>"
export DBUS_SYSTEM_BUS_ADDRESS=unix:path=$XDG_RUNTIME_DIR/system DBUS_SESSION_BUS_ADDRESS=unix:path=$XDG_RUNTIME_DIR/bus
/usr/libexec/at-spi-bus-launcher --launch-immediately > /dev/null 2>&1 & pids+=($!)

shell_eval() {  # shell_eval JS: true when the shell says the value is "true"
    dbus-send --session --print-reply --dest=org.gnome.Shell /org/gnome/Shell org.gnome.Shell.Eval "string:$1" 2>/dev/null \
        | grep -q 'string "true"'
}
# until SECONDS COMMAND…: polls COMMAND every 0.1 s until it succeeds; fails after SECONDS.
until_() { local end=$((SECONDS + $1)); shift; until "$@"; do [ $SECONDS -ge $end ] && return 1; sleep 0.1; done; }
XDG_CURRENT_DESKTOP=GNOME XDG_SESSION_TYPE=wayland XDG_SESSION_DESKTOP=gnome \
    gnome-shell --headless --wayland --virtual-monitor 1280x800 --unsafe-mode > "$out/shell.txt" 2>&1 & pids+=($!)
if ! until_ 180 shell_eval 'Main.layoutManager._startingUp === false'; then
    echo "wayland.shell=failed"; tail -5 "$out/shell.txt"; exit 0
fi
echo "wayland.shell=$(gnome-shell --version | tr ' ' _)"
# The session starts in the overview; a window opening leaves it, but the first keys would go to its search.
shell_eval 'Main.overview.hide(); true'

nudge() { "$work/bin/nudge" "$@" > /dev/null; }
nudge add "Tea" --at 15:00
nudge add "Take the medicine" --at 21:00
keys() { python3 "$work/wayland-keys.py" "$@"; }
drive() { python3 "$work/atspi-window.py" "$@"; }
G_ENABLE_DIAGNOSTIC=1 GDK_BACKEND=wayland WAYLAND_DISPLAY=wayland-0 "$work/bin/nudge-window" > "$out/stderr.txt" 2>&1 &
window=$!
drive wait "check box" "Take the medicine" present 60 > /dev/null || { echo "wayland.start=failed"; cat "$out/stderr.txt"; exit 0; }
# The window is a Wayland client of the shell's (MetaWindowClientType.WAYLAND is 0), and has the focus.
until_ 20 shell_eval 'global.display.get_focus_window()?.get_title() === "Nudge"' && \
    shell_eval 'global.display.get_focus_window().get_client_type() === 0' && echo "wayland.client=wayland"

# The main page, by Tab and by Shift+Tab: each stop once, back to the first.
keys cycle > "$out/tab.txt" 2>&1; echo "wayland.tab=$?"
keys cycle shift > "$out/shift-tab.txt" 2>&1; echo "wayland.shift-tab=$?"
# A delete by keyboard: Tab to Tea's Delete, Space; the toast's button takes the focus and says what happened.
for _ in $(seq 30); do
    [ "$(drive focused 2>/dev/null | cut -f2)" = "Delete Tea" ] && break
    keys press Tab > /dev/null
done
keys press space button "Deleted “Tea”. Undo" > "$out/delete.txt"; echo "wayland.delete=$?"
keys key ctrl+z; drive wait "check box" "Tea" present 20 > /dev/null && echo "wayland.undo=ok"
# (AT-SPI 2.56 calls a push button "button".)
# The form: announced with its title, the Title field's focus said as it opens, the Body's by Tab.
keys press ctrl+n text Title dialog "Add a Reminder" > "$out/form.txt"; echo "wayland.form=$?"
keys press Tab text Body >> "$out/form.txt"
keys type "half typed"
# Escape on a half-typed form asks; the question's Discard ends it.
keys key Escape
drive wait button Discard present 20 > /dev/null && echo "wayland.form-asks=yes"
drive do button Discard click > /dev/null
drive wait text Title gone 20 > /dev/null && echo "wayland.form=closed"
# Settings by Ctrl+comma, its first stop focused and said; Escape closes it.
keys press ctrl+comma "spin button" "Cup, ml" > "$out/settings.txt"; echo "wayland.settings=$?"
keys key Escape
drive wait "spin button" "Cup, ml" gone 20 > /dev/null && echo "wayland.settings=closed"
# A picture of the window on the shell's screen (org.gnome.Shell.Screenshot; --unsafe-mode lets a test ask).
dbus-send --session --print-reply --dest=org.gnome.Shell.Screenshot /org/gnome/Shell/Screenshot \
    org.gnome.Shell.Screenshot.Screenshot boolean:false boolean:false "string:$out/wayland.png" > /dev/null 2>&1
keys key ctrl+q
for _ in $(seq 100); do kill -0 "$window" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$window" 2>/dev/null; then echo "wayland.quit=running"; kill "$window"; else wait "$window"; echo "wayland.quit=$?"; fi
echo "wayland.done=ok"
