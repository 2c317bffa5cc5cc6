# GNOME Shell 43 (Debian 12's), headless on Wayland, for live-session. The shell draws the
# pop-ups; the notification name is owned by its gjs helper (org.gnome.Shell.Notifications),
# which hands each call to the shell. --unsafe-mode opens org.gnome.Shell.Eval, through which
# the tray is read and the pop-up's own buttons are clicked, and the screenshot interface.
# Killed and back is the shell and its helper together: the helper alone holds nothing, the
# pop-ups live in the shell.

# The session's desktop, as Nudge's daemon finds it in a GNOME session (it then follows
# show-banners for do-not-disturb).
export XDG_CURRENT_DESKTOP=GNOME

shell_eval() {  # shell_eval JS: the value of JS, as text (a string as it is, others as JSON)
    local out
    out=$(dbus-send --session --print-reply --dest=org.gnome.Shell /org/gnome/Shell org.gnome.Shell.Eval \
        "string:$1" 2>/dev/null) || return 1
    # "boolean true", then the result as JSON in one quoted string (dbus-send adds no escapes).
    case $out in *"boolean true"*) ;; *) echo "eval failed: $out" >&2; return 1 ;; esac
    out=${out#*string \"}
    python3 -c 'import json, sys; v = json.loads(sys.argv[1]); print(v if isinstance(v, str) else json.dumps(v), end="")' "${out%\"}"
}

# Nudge's notifications: its source is named after its desktop entry.
nudge_js='Main.messageTray.getSources().filter(s => s.title === "Nudge").flatMap(s => s.notifications)'

shell_up() {  # the shell started, its start finished (its startup animation done)
    XDG_CURRENT_DESKTOP=GNOME XDG_SESSION_TYPE=wayland XDG_SESSION_DESKTOP=gnome \
        gnome-shell --headless --wayland --virtual-monitor 1280x800 --unsafe-mode >>"$work/shell.log" 2>&1 &
    shell=$!
    wait_for 120 owned org.gnome.Shell || return 1
    # Up to two minutes: a shell starting again while the machine is busy with the whole
    # suite is slow to finish its start.
    wait_for 120 eval '[ "$(shell_eval "Main.layoutManager._startingUp === false")" = true ]'
}

server_start() {
    # Once in a clean-clone CI (the whole suite on both cores) a shell answered on the bus
    # and never finished its start in two minutes; such a shell is started once more, and
    # the log says so.
    if ! shell_up; then
        echo "gnome: the shell did not finish starting; starting it once more; its log: $(tail -5 "$work/shell.log")" >&2
        server_kill
        shell_up || { echo "gnome: the shell did not finish starting again; its log: $(tail -5 "$work/shell.log")" >&2; return 1; }
    fi
    # The shell's own notices ("Screen Lock disabled") would take the pop-up slot first.
    shell_eval 'Main.messageTray.getSources().filter(s => s.title !== "Nudge").forEach(s => s.destroy()); "ok"' >/dev/null
    # With no input device the session would turn idle after 5 minutes, which Nudge reads
    # as away: a virtual pointer moves in the bottom-right corner every 30 s, as a hand would
    # (the seat through the stage's context from GNOME 49, which has no default backend).
    ( while kill -0 "$shell" 2>/dev/null; do
        shell_eval 'const C = imports.gi.Clutter;
            global._nudgePointer ??= (C.get_default_backend ? C.get_default_backend() : global.stage.context.get_backend())
                .get_default_seat()
                .create_virtual_device(C.InputDeviceType.POINTER_DEVICE);
            global._nudgeStep = !global._nudgeStep;
            global._nudgePointer.notify_absolute_motion(global.get_current_time() * 1000, 1270, global._nudgeStep ? 790 : 795);
            "ok"' >/dev/null 2>&1
        sleep 30
      done ) & pids+=($!)
    wait_for 30 owned org.freedesktop.Notifications
}

server_stop() { pkill -u "$(id -u)" -f org.gnome.Shell.Notifications 2>/dev/null; stop "${shell:-}"; }

server_kill() {
    kill -9 "$shell" 2>/dev/null
    pkill -9 -u "$(id -u)" -f org.gnome.Shell.Notifications 2>/dev/null
    wait "$shell" 2>/dev/null
    # A shell started before the bus has dropped the killed one's name ends at once ("already
    # exists on bus"), as the second start in a clean-clone CI did.
    wait_for 10 unowned org.gnome.Shell
    wait_for 10 unowned org.freedesktop.Notifications
}

server_restart() { server_start; }

popups() {
    shell_eval "(() => {
        const b = Main.messageTray._banner;
        return $nudge_js.map(n => {
            const shown = b && b.notification === n && b._buttonBox;
            const labels = shown ? b._buttonBox.get_children().map(c => c.label) : n.actions.map(a => a.label);
            return n.title + '\t' + labels.join('|');
        }).join('\n');
    })()"
}

# The newest of Nudge's pop-ups, as the person clicks it: the banner's own button while the
# banner is up, else the same button in the tray.
press() {
    local label
    label=$(printf '%s' "$1" | python3 -c 'import json, sys; print(json.dumps(sys.stdin.read()))')
    shell_eval "(() => {
        const n = $nudge_js.pop(); if (!n) return 'none';
        const b = Main.messageTray._banner;
        if (b && b.notification === n && b._buttonBox) {
            const button = b._buttonBox.get_children().find(c => c.label === $label);
            if (!button) return 'no button';
            button.emit('clicked', 1); return 'banner';
        }
        const a = n.actions.find(a => a.label === $label);
        if (!a) return 'no action';
        a.callback(); if (!n.resident) n.destroy(); return 'tray';
    })()" >/dev/null
}

click_body() { shell_eval "(() => { const n = $nudge_js.pop(); if (n) n.activate(); return 'ok'; })()" >/dev/null; }
dismiss() { shell_eval "(() => { const n = $nudge_js.pop(); if (n) n.destroy(); return 'ok'; })()" >/dev/null; }

dnd() {
    case $1 in
    on) gsettings set org.gnome.desktop.notifications show-banners false ;;
    off) gsettings set org.gnome.desktop.notifications show-banners true ;;
    esac
}

shot() {  # the top centre of the screen, where GNOME draws a banner, expanded to show its buttons
    local full=$work/full-$$.png
    shell_eval 'Main.messageTray._banner?.expand(false); "ok"' >/dev/null
    sleep 0.5
    gdbus call --session --dest org.gnome.Shell.Screenshot --object-path /org/gnome/Shell/Screenshot \
        --method org.gnome.Shell.Screenshot.Screenshot false false "$full" >/dev/null 2>&1 || return 0
    convert "$full" -crop 560x220+360+0 +repage "$1" 2>/dev/null
    rm -f "$full"
}

# The banner on screen, if it is one of Nudge's: its title; and a button pressed on it.
banner() {
    shell_eval "(() => {
        const n = Main.messageTray._banner?.notification;
        return n && $nudge_js.includes(n) ? n.title : '';
    })()"
}
press_banner() {
    local label
    label=$(printf '%s' "$1" | python3 -c 'import json, sys; print(json.dumps(sys.stdin.read()))')
    shell_eval "(() => {
        const b = Main.messageTray._banner, n = b?.notification;
        if (!n || !$nudge_js.includes(n)) return 'none';
        const button = b._buttonBox?.get_children().find(c => c.label === $label);
        if (button) { button.emit('clicked', 1); return 'banner'; }
        const a = n.actions.find(a => a.label === $label);
        if (!a) return 'no action';
        a.callback(); if (!n.resident) n.destroy(); return 'action';
    })()" >/dev/null
}

# The overview's search, as a person uses it: the overview shown, the words typed into its
# entry, and Nudge's results read as the shell draws them. The shell loads Nudge's provider
# from its .ini (gnome-shell/search-providers/ under XDG_DATA_DIRS, naming the desktop entry),
# so a result there proves the .ini, the entry and the daemon's interface together.
search_start() { :; }
search_js="(Main.overview.searchController ?? Main.overview._overview._controls._searchController)._searchResults"
search_provider_js="$search_js._providers.find(p => p.id === 'io.github.nudge.Nudge.desktop')"
# search_state TEXT: pending while the shell searches for TEXT; else one line per Nudge
# result shown: NAME<TAB>DESCRIPTION (the labels' text, as drawn).
search_state() {
    local text
    text=$(printf '%s' "$1" | python3 -c 'import json, sys; print(json.dumps(sys.stdin.read().split()))')
    shell_eval "(() => {
        const view = $search_js, p = $search_provider_js;
        if (!p) return 'no provider';
        if (view.searchInProgress || JSON.stringify(view._terms) !== JSON.stringify($text)) return 'pending';
        const d = p.display;
        if (!d || !d.visible) return '';
        return d._content.get_children().filter(c => c.visible)
            .map(c => c.label_actor.text + '\t' + (c._descriptionLabel ? c._descriptionLabel.text : '')).join('\n');
    })()"
}
search_results() {  # search_results TEXT: typed into the overview's entry; Nudge's results
    local text state
    text=$(printf '%s' "$1" | python3 -c 'import json, sys; print(json.dumps(sys.stdin.read()))')
    shell_eval "(() => { Main.overview.show(); Main.overview.searchEntry.set_text($text); return 'ok'; })()" >/dev/null
    wait_for 10 eval '[ "$(search_state "$1")" != pending ]'
    # The results come in after the search ends: let them be drawn.
    sleep 0.5
    search_state "$1"
}
search_choose() {  # search_choose NAME: Nudge's result NAME activated as a click does; the overview closes
    local name
    name=$(printf '%s' "$1" | python3 -c 'import json, sys; print(json.dumps(sys.stdin.read()))')
    shell_eval "(() => {
        const p = $search_provider_js;
        const r = p?.display._content.get_children().find(c => c.label_actor.text === $name);
        if (!r) return 'none';
        r.activate(); return 'ok';
    })()"
}
search_open() { shell_eval 'Main.overview.visible' ; }
search_shot() {  # search_shot FILE: the overview's top: the entry and the first results
    local full=$work/full-$$.png
    gdbus call --session --dest org.gnome.Shell.Screenshot --object-path /org/gnome/Shell/Screenshot \
        --method org.gnome.Shell.Screenshot.Screenshot false false "$full" >/dev/null 2>&1 || return 0
    convert "$full" -crop 1280x260+0+0 +repage "$1" 2>/dev/null
    rm -f "$full"
}
search_stop() { shell_eval 'Main.overview.hide(); "ok"' >/dev/null; }
search_launch() {  # search_launch TEXT: the provider's icon beside its results ("more results") clicked
    search_results "$1" >/dev/null
    shell_eval "(() => { const p = $search_provider_js; if (!p?.display?.providerInfo) return 'none'; p.display.providerInfo.emit('clicked', 1); return 'ok'; })()"
}
# GNOME Settings → Search switches a provider off in this key; the shell unloads it at once.
search_off() { gsettings set org.gnome.desktop.search-providers disabled "['io.github.nudge.Nudge.desktop']"; sleep 0.5; }
