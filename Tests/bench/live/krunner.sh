# KRunner (Plasma's search box, Alt+Space) for a live session, sourced after plasma.sh:
# KRunner started on the session's KWin with Nudge's D-Bus runner registered, asked through
# its own D-Bus interface, read through AT-SPI and worked with the keyboard. Needs
# server_start first (KWin up: KRunner is a Wayland client of it).
#
#   krunner_start FILE            KRunner up, FILE (Nudge's runner file) installed as the
#                                 runner's desktop file, io.github.nudge.Nudge.desktop
#   krunner_query [-r] TEXT       KRunner's own `query` (-r: `querySingleRunner` with the
#                                 runner's id alone), then one line per match KRunner shows:
#                                 TEXT<TAB>SUBTEXT. KRunner draws the subtext of the selected
#                                 row only (the first, after a query): the others' is empty.
#   krunner_matches               the same with a third field, ACTION|ACTION… (the action
#                                 buttons, drawn on the selected row only)
#   krunner_run TEXT              the match TEXT run as a person does: Down to its row, Enter
#   krunner_action TEXT LABEL     its row selected, then its action button LABEL pressed
#   krunner_shot FILE             a screenshot of KRunner's window
#   krunner_stop                  KRunner ended
#
# What it takes, found on Plasma 5.27 (KF5 Runner 5.103) and 6.3 (KF6 Runner 6.13):
# - KRunner finds D-Bus runners by listing krunner/dbusplugins/*.desktop in
#   $XDG_DATA_HOME and every $XDG_DATA_DIRS folder, itself, when it loads its runners: no
#   sycoca (kbuildsycoca only matters for its application runner). The file must be there
#   before KRunner starts; it is read once.
# - Keys both versions read from it (KRunner's parseMetaDataFromDesktopFile): X-Plasma-API
#   (starting with DBus; DBus2 adds the Config call), X-Plasma-DBusRunner-Service and -Path,
#   X-KDE-PluginInfo-Name (the runner's id, querySingleRunner's and krunnerrc's),
#   X-KDE-PluginInfo-EnabledByDefault, Name, Icon, Comment. X-KDE-ServiceTypes and
#   X-Plasma-API-Minimum-Version are read by neither; KF6 still reads .desktop, not JSON.
#   Teardown is called after each session on both, DBus or DBus2.
# - The a11y bus must be up before KRunner starts, and Qt must be told to join it
#   (QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1, QT_ACCESSIBILITY=1): no screen reader runs here.
# - Keys go through KWin's fake-input protocol (wlkeys.py), which KWin lists only with
#   KWIN_WAYLAND_NO_PERMISSION_CHECKS=1 (plasma.sh starts KWin so). AT-SPI gives a row no
#   action of its own on either version, and an AT-SPI key event reaches no Wayland window.

krunner_runner_file=$work/share/krunner/dbusplugins/io.github.nudge.Nudge.desktop
krunner_env() { plasma_env QT_ACCESSIBILITY=1 QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1 "$@"; }
krunner_atspi() { timeout 20 python3 "$here/live/krunner-atspi.py" "$@"; }
krunner_keys() { plasma_env timeout 20 python3 "$here/live/wlkeys.py" "$@"; }
krunner_call() {  # krunner_call METHOD ARGS…: KRunner's own D-Bus interface
    local method=$1; shift
    dbus-send --session --print-reply --dest=org.kde.krunner /App "org.kde.krunner.App.$method" "$@" >/dev/null
}

krunner_start() {
    install -D -m 644 "$1" "$krunner_runner_file"
    # The runner under test alone: the others (files, recent documents, Baloo, web
    # searches, …) cost time, fail without their services, and fill the list.
    mkdir -p "$XDG_CONFIG_HOME"
    {
        echo "[Plugins]"
        # Their ids, with and without the krunner_ of their file names.
        for r in baloosearch locations recentdocuments org.kde.activities2 windows webshortcuts placesrunner \
                 bookmarksrunner appstream kill sessions powerdevil shell services systemsettings windowedwidgets \
                 kwin plasma-desktop calculator helprunner unitconverter; do
            echo "${r}Enabled=false"
            echo "krunner_${r}Enabled=false"
        done
        # Nudge's runner switched off, as KRunner's settings do it (krunner_off).
        [ -n "${krunner_nudge_off:-}" ] && echo "io.github.nudge.NudgeEnabled=false"
    } > "$XDG_CONFIG_HOME/krunnerrc"
    # None already there (one the bus started would keep the settings it read).
    pkill -u "$(id -u)" -x krunner 2>/dev/null
    wait_for 10 eval '! owned org.kde.krunner'
    dbus-send --session --print-reply --dest=org.a11y.Bus /org/a11y/bus org.a11y.Bus.GetAddress >/dev/null
    # Its own process (env), so $! is KRunner's pid; it joins pids so the session's end ends it.
    krunner_env krunner >>"$work/krunner.log" 2>&1 &
    krunner=$!
    pids+=($krunner)
    wait_for 30 owned org.kde.krunner
}

# Ended, and its name gone: a KRunner the bus started meanwhile (its service file is the
# stock one) would answer for the next with the settings it read before.
krunner_stop() {
    [ -n "${krunner:-}" ] && stop "$krunner"
    krunner=
    pkill -u "$(id -u)" -x krunner 2>/dev/null
    wait_for 10 eval '! owned org.kde.krunner'
}

krunner_matches() { krunner_atspi matches; }

# The list as drawn, once KRunner holds TEXT and the list is the same twice 0.3 s apart
# (the runners answer one after the other). Empty after 5 s without a match.
krunner_settled() {
    local text=$1 deadline=$(( $(date +%s%N) + 5000000000 )) last= now
    while [ "$(date +%s%N)" -lt "$deadline" ]; do
        if [ "$(krunner_atspi query 2>/dev/null)" = "$text" ]; then
            now=$(krunner_matches 2>/dev/null)
            [ -n "$now" ] && [ "$now" = "$last" ] && break
            last=$now
        fi
        sleep 0.3
    done
}

krunner_query() {
    if [ "$1" = -r ]; then
        krunner_call querySingleRunner string:io.github.nudge.Nudge "string:$2" || return 1
        shift
    else
        krunner_call query "string:$1" || return 1
    fi
    krunner_settled "$1"
    krunner_matches | cut -f1,2
}

# krunner_select TEXT: Down from the first row (the selected one after a query) to TEXT's.
krunner_select() {
    local row keys=()
    row=$(krunner_atspi index "$1") || return 1
    for _ in $(seq "$row"); do keys+=(Down); done
    [ ${#keys[@]} = 0 ] || krunner_keys "${keys[@]}"
}

krunner_run() { krunner_select "$1" && krunner_keys Return; }

krunner_action() { krunner_select "$1" && sleep 0.2 && krunner_atspi action "$1" "$2"; }

# KRunner sits at the top of the screen, in the middle, at the size AT-SPI gives its window
# (Wayland tells a window nothing of where it is).
krunner_shot() {
    local size w h
    size=$(krunner_atspi extents) || return 1
    w=$(echo "$size" | cut -d' ' -f3) h=$(echo "$size" | cut -d' ' -f4)
    shot "$1" "${w}x${h}+$(( (1280 - w) / 2 ))+0"
}
