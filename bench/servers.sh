#!/usr/bin/env bash
# One reminder on every notification server Debian runs headless here, each on an X
# display and a session bus of its own, with Nudge's daemon: fired twice unanswered (so the
# pop-up shows its count), then a screenshot of the pop-up and what the server says of
# itself (mako under a headless sway too). Screenshots go to .build/bench/servers/SERVER.png.
#   make bench   (or bench/servers.sh after a release build)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
nudge="$root/.build/release/nudge"
out="$root/.build/bench/servers"
mkdir -p "$out"
declare -A servers=(
    [dunst]="/usr/bin/dunst"
    [xfce4-notifyd]="/usr/lib/x86_64-linux-gnu/xfce4/notifyd/xfce4-notifyd"
    [notification-daemon]="/usr/lib/notification-daemon/notification-daemon"
)
for name in dunst xfce4-notifyd notification-daemon; do
    program=${servers[$name]}
    [ -x "$program" ] || { echo "$name: not installed (make deps installs it)"; continue; }
    work=$(mktemp -d)
    pids=()
    Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp 3>"$work/display" 2>/dev/null & pids+=($!)
    for _ in $(seq 100); do [ -s "$work/display" ] && break; sleep 0.05; done
    export DISPLAY=":$(cat "$work/display")"
    printf '<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN" "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">\n<busconfig><type>session</type><listen>unix:dir=%s</listen><auth>EXTERNAL</auth><policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy></busconfig>\n' "$work" > "$work/bus.conf"
    dbus-daemon --config-file="$work/bus.conf" --nofork --print-address=3 3>"$work/address" 2>/dev/null & pids+=($!)
    for _ in $(seq 100); do [ -s "$work/address" ] && break; sleep 0.05; done
    export DBUS_SESSION_BUS_ADDRESS=$(head -n 1 "$work/address") XDG_DATA_HOME="$work/data" LANG=C.UTF-8
    unset DBUS_STARTER_ADDRESS DBUS_STARTER_BUS_TYPE XDG_RUNTIME_DIR
    if [ "$name" = dunst ]; then "$program" -conf /dev/null >/dev/null 2>&1 & else "$program" >/dev/null 2>&1 & fi
    pids+=($!)
    for _ in $(seq 100); do "$nudge" doctor --json >/dev/null 2>&1 && break; sleep 0.1; done
    "$nudge" daemon 2>/dev/null & pids+=($!)
    sleep 0.5
    at1=$(date -d '+2 seconds' +%H:%M:%S); at2=$(date -d '+3 seconds' +%H:%M:%S)
    "$nudge" add "Drink water" --body "A glass now: 250 ml" --at "$at1" --at "$at2" >/dev/null
    sleep 4.5
    import -window root "$out/$name.png"
    convert "$out/$name.png" -crop 440x170+840+0 +repage "$out/$name.png"
    info=$("$nudge" doctor 2>/dev/null | grep -E "notification server|capabilities" | sed 's/^ok   /  /' || true)
    echo "$name: $out/$name.png"
    echo "$info"
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$work"
done

# mako under a headless sway: sway will not run as root, so as nobody on a bus of its own.
if [ -x /usr/bin/sway ] && [ -x /usr/bin/mako ] && [ "$(id -u)" = 0 ]; then
    work=$(mktemp -d); chmod 777 "$work"
    cp "$root/Tests/bench/mako-session" "$nudge" "$work/"
    runuser -u nobody -- dbus-run-session -- "$work/mako-session" "$work/nudge" "$work" | sed 's/^/  /'
    convert "$work/mako.png" -crop 440x170+840+0 +repage "$out/mako.png"
    echo "mako: $out/mako.png"
    rm -rf "$work"
else
    echo "mako: needs root (to run sway as nobody), sway and mako-notifier"
fi

# GNOME Shell, KDE Plasma and swaync, live (Tests/bench/live-session, as nobody): per
# desktop, how late the reminder's Notify was on the bus beside a shell woken at the same
# instant, and a button press's way to the store beside `nudge ack`'s (the same wait).
# Screenshots of a reminder shown twice go to .build/bench/servers/DESKTOP.png.
figure() {  # figure NAME VALUE UNIT ANCHOR ANCHOR-VALUE: as BenchSupport's figure()
    python3 "$root/bench/figure.py" "$@"
}
for desktop in gnome plasma swaync; do
    if [ "$(id -u)" != 0 ]; then echo "$desktop: needs root (to run the desktop as nobody)"; continue; fi
    work=$(mktemp -d); chmod 777 "$work"; mkdir -m 777 "$work/session"
    cp -r "$root/Tests/bench/live-session" "$root/Tests/bench/live" "$nudge" "$work/"
    cp "$root/packaging/io.github.nudge.Nudge.desktop" "$root/packaging/icons/io.github.nudge.Nudge.svg" "$work/session/"
    chmod 666 "$work"/session/*
    mkdir -m 1777 -p /tmp/.X11-unix
    runuser -u nobody -- env -u DBUS_SESSION_BUS_ADDRESS -u DISPLAY -u WAYLAND_DISPLAY \
        ARRIVALS=7 setsid -w "$work/live-session" "$desktop" "$work/nudge" "$work/session" > "$work/out" 2>/dev/null || true
    value() { sed -n "s/^$1=//p" "$work/out" | head -n 1; }
    if [ "$(value start)" != ok ]; then echo "$desktop: did not start (make deps installs it)"; rm -rf "$work"; continue; fi
    echo "$desktop: $(value server), up in $(value start.ms) ms; $out/$desktop.png"
    cp "$work/session/$desktop.png" "$out/$desktop.png" 2>/dev/null || true
    [ "$(value arrive.count)" = 7 ] || echo "$desktop: $(value arrive.count) of 7 showings measured" >&2
    figure "$desktop: due to Notify on the bus (median of 7 showings)" "$(value arrive.late.median.ms)" ms \
        "a shell woken at the instant (median)" "$(value arrive.anchor.median.ms)" || true
    presses=$(grep -E '^(press|water)\..*\.answer\.ms=' "$work/out" | sed "s/.*=//" | sort -n || true)
    press=$(echo "$presses" | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }')
    figure "$desktop: button press to the answer in the store (median)" "$press" ms "nudge ack to the answer in the store" "$(value anchor.answer.ms)" || true
    # Nudge's part of a press: the desktop's ActionInvoked on the bus to the answer in the store
    # (the press's way to the bus is the AT-SPI driver's and the desktop's).
    stored=$(grep -E '^(press|water)\..*\.store\.ms=' "$work/out" | sed "s/.*=//" | sort -n || true)
    store=$(echo "$stored" | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }')
    figure "$desktop: ActionInvoked to the answer in the store (median)" "$store" ms "nudge ack to the answer in the store" "$(value anchor.answer.ms)" || true
    rm -rf "$work"
done
