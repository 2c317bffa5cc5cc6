#!/bin/bash
# Tests/bench/live/krunner-try.sh WORK [DESKTOP-FILE]: KRunner and a D-Bus runner, live: a headless KWin
# (plasma.sh), KRunner (krunner.sh) and krunner-standin.py, which serves the runner Nudge's
# daemon will serve (io.github.nudge.Nudge, /io/github/nudge/Nudge/Runner, org.kde.krunner1)
# and logs every call. Prints KEY=VALUE lines: KRunner loaded the runner from its desktop
# file (DESKTOP-FILE, by default krunner-runner.desktop), called Match with the query,
# showed the matches, and ran the one chosen.
#
# The desktops will not run as root: run it as an unprivileged user, in a process group of
# its own, with a WORK it can write, like live-session:
#   runuser -u nobody -- setsid -w Tests/bench/live/krunner-try.sh WORK          (Plasma 5.27)
#   scripts/desktop-root run trixie --bind DIR -- runuser -u nudgelive -- setsid -w \
#       DIR/live/krunner-try.sh DIR/session                                      (Plasma 6.3)
set -u
work=$1
here=$(cd "$(dirname "$0")/.." && pwd)
export HOME=$work/home XDG_RUNTIME_DIR=$work/run XDG_DATA_HOME=$work/data XDG_CONFIG_HOME=$work/config
export XDG_DATA_DIRS=$work/share:/usr/local/share:/usr/share TZ=UTC LANG=C.UTF-8 NO_AT_BRIDGE=1
mkdir -p "$HOME" "$XDG_DATA_HOME" "$XDG_CONFIG_HOME" "$work/services"
mkdir -p -m 700 "$XDG_RUNTIME_DIR"
pids=()
cleanup() {
    server_stop 2>/dev/null
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
    trap '' TERM
    if [ "$(ps -o pgid= $$ | tr -d ' ')" = "$$" ]; then
        kill -TERM -- -$$ 2>/dev/null
        for _ in $(seq 20); do [ -z "$(pgrep -g $$ | grep -vx "$$\|$BASHPID")" ] && break; sleep 0.1; done
        for p in $(pgrep -g $$); do [ "$p" != $$ ] && [ "$p" != "$BASHPID" ] && kill -KILL "$p" 2>/dev/null; done
    fi
    wait 2>/dev/null
}
stop() {
    local p
    kill "$@" 2>/dev/null
    for _ in $(seq 50); do
        for p in "$@"; do kill -0 "$p" 2>/dev/null && break; p=; done
        [ -z "$p" ] && break
        sleep 0.1
    done
    kill -KILL "$@" 2>/dev/null
    wait "$@" 2>/dev/null
}
trap cleanup EXIT
trap 'exit 1' TERM
( sleep 180; echo "krunner-try: gave up after 3 minutes" >&2; kill -TERM $$ ) & pids+=($!)

bus() {  # bus NAME TYPE: a private bus listening in $work
    cat > "$work/$1.conf" <<CONF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path=$work/$1.socket</listen>
  <auth>EXTERNAL</auth>
  $2
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
CONF
    dbus-daemon --config-file="$work/$1.conf" --nofork 2>>"$work/bus.log" & pids+=($!)
    for _ in $(seq 100); do [ -S "$work/$1.socket" ] && break; sleep 0.05; done
}
for f in /usr/share/dbus-1/services/*.service; do
    grep -q '^Name=org.freedesktop.Notifications$' "$f" || ln -sf "$f" "$work/services/"
done
bus system ""
bus session "<servicedir>$work/services</servicedir>"
export DBUS_SYSTEM_BUS_ADDRESS=unix:path=$work/system.socket DBUS_SESSION_BUS_ADDRESS=unix:path=$work/session.socket
unset DISPLAY WAYLAND_DISPLAY DBUS_STARTER_ADDRESS DBUS_STARTER_BUS_TYPE
owned() {
    dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
        org.freedesktop.DBus.NameHasOwner "string:$1" 2>/dev/null | grep -q true
}
wait_for() {
    local deadline=$(( $(date +%s%N) + ${1%.*} * 1000000000 )); shift
    until "$@"; do
        [ "$(date +%s%N)" -lt "$deadline" ] || return 1
        sleep "${poll:-0.05}"
    done
}
ms_since() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }

. "$here/live/plasma.sh"
. "$here/live/krunner.sh"

if command -v kbuildsycoca6 >/dev/null; then kf=libkf6runner6; else kf=libkf5runner5; fi
echo "plasma=$(dpkg-query -W -f '${Version}' plasma-workspace 2>/dev/null | sed 's/^[0-9]*://; s/-.*//')"
echo "krunner.framework=$(dpkg-query -W -f '${Version}' "$kf" 2>/dev/null | sed 's/-.*//')"

started=$(date +%s%N)
server_start || { echo "kwin=failed"; tail -n 30 "$work"/*.log >&2; exit 0; }
echo "kwin.ms=$(ms_since "$started")"

# The stand-in first: KRunner calls it as soon as it is asked.
log=$work/runner.log
: > "$log"
python3 "$here/live/krunner-standin.py" "$log" 2>>"$work/standin.err" & pids+=($!)
wait_for 10 owned io.github.nudge.Nudge || { echo "standin=failed"; cat "$work/standin.err"; exit 0; }
# The calls to the runner as the bus carries them.
dbus-monitor --session "type='method_call',interface='org.kde.krunner1'" > "$work/monitor.log" 2>/dev/null & pids+=($!)

started=$(date +%s%N)
krunner_start ${2:+"$2"} || { echo "start=failed"; tail -n 30 "$work/krunner.log" >&2; exit 0; }
echo "start=ok"
echo "start.ms=$(ms_since "$started")"
sleep 0.5

called() { if [ $# = 1 ]; then grep -c "^$1\($\|	\)" "$log"; else grep -c "^$1	$2" "$log"; fi; }
monitored() { grep -A1 "member=$1" "$work/monitor.log" | grep -c "string \"$2\""; }

# A query through KRunner's own `query`: the window opens with the text, and its runners
# are asked.
started=$(date +%s%N)
shown=$(krunner_query "call mum")
echo "query.ms=$(ms_since "$started")"
echo "query.match=$(called Match 'call mum')"
echo "query.monitor=$(monitored Match 'call mum')"
echo "query.shown=$(printf '%s\n' "$shown" | grep -c .)"
printf '%s\n' "$shown" | awk -F'\t' '{ printf "query.%d.text=%s\nquery.%d.subtext=%s\n", NR, $1, NR, $2 }'
echo "query.nudge=$(printf '%s\n' "$shown" | grep -c '^Remind me: Call mum — tomorrow at 18:00	Nudge · new reminder$')"
echo "query.actions=$(krunner_matches | awk -F'\t' 'NR == 1 { print $3 }')"
echo "query.field=$(krunner_atspi query)"
echo "runner.config=$(called Config)"
echo "runner.actions=$(called Actions)"
krunner_shot "$work/krunner.png" && echo "shot=ok"

# The second match run as a person does (Down, Enter): Run gets its id and no action, and
# KRunner hides its window.
started=$(date +%s%N)
krunner_run "Call mum"
wait_for 5 eval '[ "$(called Run "alert:4f2a	")" -ge 1 ]'
echo "run.ms=$(ms_since "$started")"
echo "run.call=$(grep '^Run' "$log" | tail -n 1 | tr '\t' ' ')"
echo "run.monitor=$(monitored Run 'alert:4f2a')"
wait_for 5 eval '[ "$(called Teardown)" -ge 1 ]'
echo "run.teardown=$(called Teardown)"

# querySingleRunner: KRunner asks the runner alone; an action button pressed.
shown=$(krunner_query -r "mum")
echo "single.shown=$(printf '%s\n' "$shown" | cut -f1 | paste -sd '|')"
echo "single.match=$(called Match mum)"
krunner_action "Remind me: Call mum — tomorrow at 18:00" "Snooze 10 min"
wait_for 5 eval '[ "$(called Run "reminder:call-mum	snooze")" -ge 1 ]'
echo "action.call=$(grep '^Run' "$log" | tail -n 1 | tr '\t' ' ')"

# A query without a match shows nothing of the runner's.
shown=$(krunner_query "xyzzy")
echo "none.match=$(called Match xyzzy)"
echo "none.shown=$(printf '%s\n' "$shown" | grep -c .)"
echo "none.list=$(printf '%s\n' "$shown" | cut -f1 | paste -sd '|')"

krunner_stop
# Its warnings, but for the disks and activities services this session has not.
echo "krunner.warnings=$(grep -i 'warn\|error' "$work/krunner.log" | grep -v -c -i 'udisks\|activit\|QSqlDatabase\|^ *"The name')"
