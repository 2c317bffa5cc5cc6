#!/bin/bash
# Calendar sync against the servers Debian 13 ships (Tests/NudgeSyncTests/SyncCurrentServersTests.swift): run inside a
# copy of the Debian 13 root (scripts/desktop-root run trixie --bind WORK -- current-servers.sh WORK), as root, on its
# own loopback. WORK holds bin/nudge and bin/nudge-sync (built here: they load the root's libcurl and libxml2). For
# Radicale (with a password, kept by gnome-keyring on a session bus of its own) and Xandikos (none), python3-caldav
# (the root's) is the phone:
#   the account added, its calendars found; the phone's weekly meeting (one occurrence moved, one cancelled, an extra
#   date) followed; a reminder made here written there, renamed on the phone and taken back; Done here acknowledged
#   there (RFC 9074); deleted on the phone, gone here; a sync with nothing new changes nothing.
# Prints KEY=VALUE lines, KIND.STEP=ok or KIND.STEP=failed:WHY (radicale=VERSION xandikos=VERSION caldav=VERSION first).
set -u
work=$1
export HOME=/tmp/home XDG_RUNTIME_DIR=/tmp/run XDG_CONFIG_HOME=/tmp/home/config TZ=Europe/Berlin LANG=C.UTF-8 NO_COLOR=1
mkdir -p "$HOME" "$XDG_CONFIG_HOME" && mkdir -m 700 "$XDG_RUNTIME_DIR"
version() { dpkg-query -W -f '${Version}' "$1" 2>/dev/null || echo none; }
echo "radicale=$(version radicale) xandikos=$(version xandikos) caldav=$(version python3-caldav) curl=$(version libcurl4t64)"
dbus-daemon --session --fork --address="unix:path=$XDG_RUNTIME_DIR/bus" > /dev/null
export DBUS_SESSION_BUS_ADDRESS=unix:path=$XDG_RUNTIME_DIR/bus
for _ in $(seq 100); do [ -S "$XDG_RUNTIME_DIR/bus" ] && break; sleep 0.05; done
echo keyring > /tmp/unlock
gnome-keyring-daemon --foreground --unlock --components=secrets < /tmp/unlock > /tmp/keyring.log 2>&1 &
for _ in $(seq 100); do
    dbus-send --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus.NameHasOwner \
        string:org.freedesktop.secrets 2>/dev/null | grep -q true && break
    sleep 0.1
done
# answers PORT: whether something listens there.
answers() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
# phone KIND PYTHON: the phone's library, on the server at $url with $user and $password.
phone() {
    URL=$url USER_NAME=$user PASSWORD=$password python3 -c "
import os, sys, caldav
client = caldav.DAVClient(url=os.environ['URL'], username=os.environ['USER_NAME'] or None, password=os.environ['PASSWORD'] or None)
def calendar(name):
    for c in client.principal().calendars():
        if c.name == name or str(c.url).rstrip('/').endswith('/' + name):
            return c
    raise SystemExit('no calendar ' + name)
def objects(name):
    found = []
    for o in calendar(name).objects():
        o.load()
        found.append(o)
    return found
$2"
}
meeting='BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Phone//EN\r\nBEGIN:VEVENT\r\nUID:meeting@phone\r\nDTSTAMP:20261120T100000Z\r\nDTSTART;TZID=Europe/Berlin:20301202T100000\r\nDTEND;TZID=Europe/Berlin:20301202T110000\r\nRRULE:FREQ=WEEKLY\r\nRDATE;TZID=Europe/Berlin:20301227T170000\r\nSUMMARY:Team meeting\r\nBEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER:-PT15M\r\nDESCRIPTION:Team meeting\r\nEND:VALARM\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nUID:meeting@phone\r\nDTSTAMP:20261120T100000Z\r\nRECURRENCE-ID;TZID=Europe/Berlin:20301209T100000\r\nDTSTART;TZID=Europe/Berlin:20301210T140000\r\nDTEND;TZID=Europe/Berlin:20301210T150000\r\nSUMMARY:Team meeting\r\nBEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER:-PT30M\r\nDESCRIPTION:Team meeting\r\nEND:VALARM\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nUID:meeting@phone\r\nDTSTAMP:20261120T100000Z\r\nRECURRENCE-ID;TZID=Europe/Berlin:20301216T100000\r\nDTSTART;TZID=Europe/Berlin:20301216T100000\r\nSTATUS:CANCELLED\r\nSUMMARY:Team meeting\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n'
for kind in radicale xandikos; do
    dir=/tmp/$kind user= password= own=calendar follow=
    if [ "$kind" = radicale ]; then port=5232; else port=5233; fi
    mkdir -p "$dir"
    export XDG_DATA_HOME=$dir/data
    url=http://127.0.0.1:$port/
    if [ "$kind" = radicale ]; then
        user=ann password=secret-$RANDOM own=Reminders follow=Phone
        printf 'ann:%s\n' "$password" > "$dir/users"
        printf '[server]\nhosts = 127.0.0.1:%s\n[auth]\ntype = htpasswd\nhtpasswd_filename = %s/users\nhtpasswd_encryption = plain\n[storage]\nfilesystem_folder = %s/collections\n[rights]\ntype = owner_only\n[logging]\nlevel = warning\n' \
            "$port" "$dir" "$dir" > "$dir/config"
        radicale --config "$dir/config" > "$dir/server.log" 2>&1 &
    else
        xandikos -d "$dir/store" --defaults -l 127.0.0.1 -p "$port" > "$dir/server.log" 2>&1 &
    fi
    for _ in $(seq 200); do answers "$port" && break; sleep 0.05; done
    answers "$port" || { echo "$kind.start=failed:$(tail -c 300 "$dir/server.log" | tr '\n ' '|_')"; continue; }
    step() { # step NAME CONDITION-COMMAND…: KIND.NAME=ok, or failed with what the last nudge said.
        local name=$1; shift
        if "$@"; then echo "$kind.$name=ok"; else echo "$kind.$name=failed:$(tail -c 400 /tmp/said | tr '\n ' '|_')"; fi
    }
    nudge() { "$work/bin/nudge" "$@" > /tmp/said 2>&1; }
    if [ "$kind" = radicale ]; then
        phone "$kind" "p = client.principal(); p.make_calendar(name='Reminders'); p.make_calendar(name='Phone')" > /tmp/said 2>&1
    else
        # Xandikos has one calendar: the phone's events go into Nudge's own there.
        follow=
    fi
    phone "$kind" "calendar('${follow:-$own}').save_event('$meeting')" >> /tmp/said 2>&1
    if [ -n "$user" ]; then
        printf '%s\n' "$password" | "$work/bin/nudge" sync add "$url" --user "$user" --password-stdin --own "$own" ${follow:+--follow "$follow"} > /tmp/said 2>&1
    else
        "$work/bin/nudge" sync add "$url" --own "$own" > /tmp/said 2>&1
    fi
    step add grep -q "^Account " /tmp/said
    # The meeting: 09:45 in Berlin each Monday; the 9th moved to the 10th at 13:30, the 16th cancelled, the 27th added.
    id=$("$work/bin/nudge" list --json | python3 -c "import json,sys; print(next(a['shortId'] for a in json.load(sys.stdin) if a['title'] == 'Team meeting'))" 2>/dev/null)
    nudge next "${id:-none}" --after 2030-12-01T00:00:00Z --count 5 --json
    step meeting python3 -c "
import json; t = [x['utc'] for x in json.load(open('/tmp/said'))]
assert t == ['2030-12-02T08:45:00Z', '2030-12-10T12:30:00Z', '2030-12-23T08:45:00Z', '2030-12-27T15:45:00Z', '2030-12-30T08:45:00Z'], t"
    # Made here: there after a sync; renamed on the phone: taken back.
    "$work/bin/nudge" add Tea --on "2030-12-01 16:00" > /dev/null 2>&1
    nudge sync now
    step sent phone "$kind" "import sys; sys.exit(0 if any('SUMMARY:Tea' in o.data for o in objects('$own')) else 1)"
    phone "$kind" "
for o in objects('$own'):
    if 'SUMMARY:Tea' in o.data:
        o.data = o.data.replace('SUMMARY:Tea', 'SUMMARY:Green tea'); o.save()" > /tmp/said 2>&1
    nudge sync now
    step renamed sh -c "'$work/bin/nudge' list | grep -q 'Green tea'"
    # Done here: acknowledged there.
    tea=$("$work/bin/nudge" list --json | python3 -c "import json,sys; print(next(a['shortId'] for a in json.load(sys.stdin) if a['title'] == 'Green tea'))" 2>/dev/null)
    "$work/bin/nudge" done "${tea:-none}" > /dev/null 2>&1
    nudge sync now
    step acknowledged phone "$kind" "import sys; sys.exit(0 if any('ACKNOWLEDGED' in o.data and 'Green tea' in o.data for o in objects('$own')) else 1)"
    # Deleted on the phone: gone here.
    phone "$kind" "
for o in objects('$own'):
    if 'Green tea' in o.data: o.delete()" > /tmp/said 2>&1
    nudge sync now
    step deleted sh -c "! '$work/bin/nudge' list | grep -q 'Green tea'"
    nudge sync now
    step quiet grep -q "0 fetched, 0 changed here, 0 removed here, 0 sent" /tmp/said
done
echo done=ok
