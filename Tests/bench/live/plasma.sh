# KDE Plasma 5.27 (Debian 12's) for live-session: its notification applet, run alone under a
# headless KWin as KDE's own tests run it (`plasmawindowed org.kde.plasma.notifications`),
# owns the notification name and draws the pop-ups. Buttons are pressed through AT-SPI (the
# real button handlers run); a body click is the applet's own call for it,
# org.kde.NotificationManager.InvokeAction(id, "default"). Killed and back is the applet;
# KWin, the compositor, stays.

export XDG_CURRENT_DESKTOP=KDE
# Plasma 6 (KF6): its own sycoca builder, and the application menu KService reads desktop
# entries through (without it Nudge's entry does not resolve: no icon, no badge).
if command -v kbuildsycoca6 >/dev/null; then
    kbuildsycoca=kbuildsycoca6
    export XDG_MENU_PREFIX=plasma-
else
    kbuildsycoca=kbuildsycoca5
fi
atspi() { timeout 20 python3 "$here/live/atspi.py" "$@"; }
plasma_env() { env WAYLAND_DISPLAY=nudge-wl QT_QPA_PLATFORM=wayland QT_QUICK_BACKEND=software "$@"; }

server_start() {
    if [ ! -S "$XDG_RUNTIME_DIR/nudge-wl" ]; then
        # A copy without kwin_wayland's cap_sys_resource file capability, which an
        # unprivileged test may not take.
        cp /usr/bin/kwin_wayland "$work/kwin_wayland"
        if [ "$kbuildsycoca" = kbuildsycoca6 ]; then
            # KWin 6's virtual backend has no OpenGL without a GPU, and then no screenshot
            # interface: nested in an Xvfb of the root's own (its display numbers are its
            # own), whose screen is the picture.
            Xvfb :5 -screen 0 1280x800x24 -nolisten tcp >>"$work/kwin.log" 2>&1 & pids+=($!)
            wait_for 10 test -e /tmp/.X11-unix/X5 || return 1
            kwin_display=:5
            KWIN_SCREENSHOT_NO_PERMISSION_CHECKS=1 KWIN_WAYLAND_NO_PERMISSION_CHECKS=1 "$work/kwin_wayland" --x11-display :5 --width 1280 --height 800 \
                --no-lockscreen --socket nudge-wl >>"$work/kwin.log" 2>&1 &
        else
            KWIN_SCREENSHOT_NO_PERMISSION_CHECKS=1 KWIN_WAYLAND_NO_PERMISSION_CHECKS=1 "$work/kwin_wayland" --virtual --width 1280 --height 800 \
                --no-lockscreen --socket nudge-wl >>"$work/kwin.log" 2>&1 &
        fi
        kwin=$!
        wait_for 30 test -S "$XDG_RUNTIME_DIR/nudge-wl" || return 1
        # Desktop entries (Nudge's among them) are read from KDE's cache.
        plasma_env $kbuildsycoca >>"$work/kwin.log" 2>&1
        # The accessibility bus first: Qt joins it only if it is there when it starts.
        dbus-send --session --print-reply --dest=org.a11y.Bus /org/a11y/bus org.a11y.Bus.GetAddress >/dev/null
    fi
    # A pop-up stays up 60 s instead of Plasma's 5 (PopupTimeout, in ms): on a busy
    # machine the screenshot and the press took longer than 5 s, and the pop-up expired
    # under the test's hand.
    printf '[Notifications]\nPopupTimeout=60000\n' > "$XDG_CONFIG_HOME/plasmanotifyrc"
    # env runs plasmawindowed in its own process, so $! is the applet's pid.
    env WAYLAND_DISPLAY=nudge-wl QT_QPA_PLATFORM=wayland QT_QUICK_BACKEND=software QT_ACCESSIBILITY=1 \
        QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1 plasmawindowed org.kde.plasma.notifications >>"$work/plasma.log" 2>&1 &
    plasma=$!
    wait_for 30 owned org.freedesktop.Notifications
}

server_stop() {
    [ -n "${inhibitor:-}" ] && kill "$inhibitor" 2>/dev/null
    stop ${plasma:-} ${kwin:-}
}

server_kill() { kill -9 "$plasma"; wait "$plasma" 2>/dev/null; wait_for 10 unowned org.freedesktop.Notifications; }
server_restart() { server_start; }

popups() { atspi popups plasmawindowed; }
press() { atspi press plasmawindowed "$1"; }
dismiss() { atspi close plasmawindowed; }

click_body() {  # the id Nudge last logged for the alert
    local id
    id=$("$nudge" log --json --since 1h | tr -d '\n' | grep -o "\"shortId\":\"$alert\",\"event\":\"[a-z-]*\",\"title\":\"[^\"]*\",\"notificationId\":[0-9]*" \
        | tail -n 1 | sed 's/.*://')
    dbus-send --session --print-reply --dest=org.freedesktop.Notifications /org/freedesktop/Notifications \
        org.kde.NotificationManager.InvokeAction "uint32:$id" string:default >/dev/null
}

# Do not disturb: an application's inhibition (as a presentation or a full-screen game asks
# for it), held while its connection is; the server says so in its Inhibited property.
dnd() {
    case $1 in
    on)
        # Held for as long as the inhibitor's connection lives; on once Inhibit has answered
        # (python's start alone took seconds on a loaded machine).
        rm -f "$work/inhibited"
        python3 -c '
import sys
from gi.repository import Gio, GLib
bus = Gio.bus_get_sync(Gio.BusType.SESSION)
bus.call_sync("org.freedesktop.Notifications", "/org/freedesktop/Notifications", "org.freedesktop.Notifications",
              "Inhibit", GLib.Variant("(ssa{sv})", ("org.kde.konsole", "a presentation", {})), None, 0, -1, None)
open(sys.argv[1], "w").close()
GLib.MainLoop().run()' "$work/inhibited" &
        inhibitor=$!
        wait_for 30 test -e "$work/inhibited"
        ;;
    off) kill "$inhibitor"; wait "$inhibitor" 2>/dev/null; inhibitor= ;;
    esac
}

# shot FILE [GEOMETRY]: KWin's screenshot of GEOMETRY (WxH+X+Y), by default the top left,
# where the applet alone puts its pop-ups.
shot() {
    if [ -n "${kwin_display:-}" ]; then
        import -display "$kwin_display" -window root -crop "${2:-340x130+0+0}" +repage "$1" 2>>"$work/kwin.log"
        return 0
    fi
    timeout 20 python3 - "$1" "$work" "${2:-340x130+0+0}" <<'PY' 2>>"$work/kwin.log"
import os, subprocess, sys
from gi.repository import Gio, GLib
out, work, crop = sys.argv[1], sys.argv[2], sys.argv[3]
bus = Gio.bus_get_sync(Gio.BusType.SESSION)
r, w = os.pipe()
fds = Gio.UnixFDList.new()
index = fds.append(w)
reply, _ = bus.call_with_unix_fd_list_sync(
    "org.kde.KWin", "/org/kde/KWin/ScreenShot2", "org.kde.KWin.ScreenShot2", "CaptureArea",
    GLib.Variant("(iiuua{sv}h)", (0, 0, 1280, 800, {}, index)), None, 0, 10000, fds, None)
os.close(w)
meta = reply.unpack()[0]
width, height, stride = meta["width"], meta["height"], meta["stride"]
# The list keeps a copy of the pipe's end: read the image's size, not to the end.
data = b""
while len(data) < stride * height and (chunk := os.read(r, 1 << 16)):
    data += chunk
rows = b"".join(data[y * stride:y * stride + width * 4] for y in range(height))
raw = os.path.join(work, "shot.bgra")
open(raw, "wb").write(rows)
subprocess.run(["convert", "-size", f"{width}x{height}", "-depth", "8", f"bgra:{raw}",
                "-crop", crop, "+repage", out], check=True)
os.remove(raw)
PY
}

# The desktop's search is KRunner's here (Alt+Space), with Nudge's runner registered by its
# desktop file; see krunner.sh.
. "$here/live/krunner.sh"
search_start() { krunner_start "$work/io.github.nudge.Nudge.krunner.desktop"; }
search_results() { krunner_query "$1"; }
search_choose() { krunner_run "$1"; }
# KRunner hides its window once a match is run.
search_open() { krunner_atspi shown 2>/dev/null || echo false; }
search_shot() { krunner_shot "$1"; }
# search_launch TEXT: Open in Nudge on the first match for TEXT.
search_launch() { krunner_action "$(krunner_query "$1" | head -n 1 | cut -f1)" "Open in Nudge"; }
search_stop() { krunner_stop; }
# KRunner's settings switch the runner off (System Settings → Search → Plasma Search writes
# this to krunnerrc); KRunner reads it when it starts.
search_off() { krunner_stop; krunner_nudge_off=1 search_start; }
