# swaync 0.7 (SwayNotificationCenter, Debian 12's) under a headless sway, for live-session.
# Its pop-ups are GTK windows: read and pressed through AT-SPI (the body of a pop-up is a
# button of its own, the click a person makes). Its do-not-disturb is its own
# (`swaync-client --dnd-on`), which it tells no client: Nudge cannot follow it, and the case
# is not run here (dnd_unsupported).

export WLR_BACKENDS=headless WLR_RENDERER=pixman WLR_LIBINPUT_NO_DEVICES=1
dnd_unsupported=1
atspi() { timeout 20 python3 "$here/live/atspi.py" "$@"; }

server_start() {
    if [ ! -S "$XDG_RUNTIME_DIR/wayland-1" ]; then
        printf 'output HEADLESS-1 resolution 1280x800\n' > "$work/sway.conf"
        sway -c "$work/sway.conf" >>"$work/sway.log" 2>&1 &
        sway=$!
        wait_for 30 test -S "$XDG_RUNTIME_DIR/wayland-1" || return 1
        dbus-send --session --print-reply --dest=org.a11y.Bus /org/a11y/bus org.a11y.Bus.GetAddress >/dev/null
    fi
    env -u NO_AT_BRIDGE WAYLAND_DISPLAY=wayland-1 GDK_BACKEND=wayland swaync >>"$work/swaync.log" 2>&1 &
    swaync=$!
    wait_for 30 owned org.freedesktop.Notifications
}

server_stop() { stop ${swaync:-} ${sway:-}; }
server_kill() { kill -9 "$swaync"; wait "$swaync" 2>/dev/null; wait_for 10 unowned org.freedesktop.Notifications; }
server_restart() { server_start; }

popups() { atspi popups swaync; }
press() { atspi press swaync "$1"; }
click_body() { atspi body swaync; }
dismiss() { atspi close swaync; }
dnd() { :; }
shot() { WAYLAND_DISPLAY=wayland-1 grim -g "770,0 510x160" "$1" 2>/dev/null; }
