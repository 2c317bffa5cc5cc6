#!/usr/bin/python3
"""bench/window-bench.py NUDGE-WINDOW NUDGE: Nudge's window beside GNOME Clocks (GTK 4 +
libadwaita, like it) and beside the floor of such a window, measured in the same run on the
same display (`make bench` runs it).

Both run on an Xvfb of their own with a private session bus, the cairo renderer (Xvfb has
no GPU: GL would be llvmpipe, slower than either app), in-memory settings and no screen
reader's bus. Nudge's store holds 1,000 daily reminders, none due within the measurement.

  start   exec to the first frame: the top-level window mapped (MapNotify on the root,
          an event: no search polled every 500 ms as `xdotool search --sync` does) and its
          pixels painted (not one colour, read every millisecond); median of 9 starts each,
          the three programs taking turns in a rotating order, after a round not counted. Nudge reads the store and lays out the list
          before it maps, so its first frame shows it. The floor (bench/floors/adw-floor.c,
          built here with cc): a bare AdwApplicationWindow with a header bar and 20
          AdwActionRows with switches, in C; goals 1.1x of it at 20 reminders, 1.2x at 1,000.
  memory  VmRSS two seconds after the first frame.
  idle    over 60 s with the window open and nothing changing: wake-ups (context
          switches summed over the process's threads) and CPU time.
  change  a reminder switched off in the store by another process (sqlite3, committed)
          to the first changed frame, median of 5; anchor: `nudge list` showing the
          same store (a new process reading it), as Clocks does not follow changes made
          outside it. Then the same with 10,000 reminders (goal 50 ms), and the window's
          CPU time for each such change (goal 16 ms, one frame), measured from /proc once
          the frame is shown and the window is idle again; anchor: sqlite3 reading the
          10,000 rows (a new process, wall time).
"""
import ctypes
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from figure import figure  # noqa: E402

window_program, nudge = sys.argv[1], sys.argv[2]
clocks = "/usr/bin/gnome-clocks"
# NUDGE_BENCH_QUICK=1: a smoke run of the benchmark itself (50 reminders, 5 s idle, 2,000
# for the many), no figures to keep.
quick = os.environ.get("NUDGE_BENCH_QUICK") == "1"
reminders, idle_seconds, many = (50, 5, 2000) if quick else (1000, 60, 10000)
# NUDGE_BENCH_STARTS=N: only the starts, N of each program (while working on the start).
only_starts = int(os.environ.get("NUDGE_BENCH_STARTS", "0"))
floor_source = os.path.join(os.path.dirname(os.path.abspath(__file__)), "floors", "adw-floor.c")


# X11 through ctypes: events on the root, and a window's pixels.
x = ctypes.CDLL("libX11.so.6")
x.XOpenDisplay.restype = ctypes.c_void_p
x.XOpenDisplay.argtypes = [ctypes.c_char_p]
x.XDefaultRootWindow.restype = ctypes.c_ulong
x.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
x.XSelectInput.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_long]
x.XPending.argtypes = [ctypes.c_void_p]
x.XNextEvent.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
x.XConnectionNumber.argtypes = [ctypes.c_void_p]
x.XGetImage.restype = ctypes.c_void_p
x.XGetImage.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_int, ctypes.c_uint, ctypes.c_uint,
                        ctypes.c_ulong, ctypes.c_int]
x.XGetGeometry.argtypes = [ctypes.c_void_p, ctypes.c_ulong] + [ctypes.c_void_p] * 7
x.XSync.argtypes = [ctypes.c_void_p, ctypes.c_int]
x.XSetErrorHandler.argtypes = [ctypes.c_void_p]
ERROR_HANDLER = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p)(lambda d, e: 0)
x.XSetErrorHandler(ctypes.cast(ERROR_HANDLER, ctypes.c_void_p))
SUBSTRUCTURE_NOTIFY, MAP_NOTIFY, Z_PIXMAP = 1 << 19, 19, 2
DESTROY = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p)


def pixels(display, window):
    """The window's pixels as bytes, or None while it cannot be read."""
    w, h = ctypes.c_uint(), ctypes.c_uint()
    root, px, py, border, depth = ctypes.c_ulong(), ctypes.c_int(), ctypes.c_int(), ctypes.c_uint(), ctypes.c_uint()
    if not x.XGetGeometry(display, window, ctypes.byref(root), ctypes.byref(px), ctypes.byref(py), ctypes.byref(w),
                          ctypes.byref(h), ctypes.byref(border), ctypes.byref(depth)):
        return None
    image = x.XGetImage(display, window, 0, 0, w.value, h.value, ctypes.c_ulong(-1).value, Z_PIXMAP)
    if not image:
        return None
    data = ctypes.c_void_p.from_address(image + 16).value
    bytes_per_line = ctypes.c_int.from_address(image + 44).value
    copy = ctypes.string_at(data, bytes_per_line * h.value)
    DESTROY(ctypes.c_void_p.from_address(image + 96).value)(image)   # XDestroyImage
    return copy


class Display:
    def __init__(self, work):
        # An Xvfb ending as this one starts can take its display number with it: one that
        # does not answer is replaced.
        for attempt in range(3):
            read, write = os.pipe()
            self.server = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
                                           pass_fds=[write], stderr=subprocess.DEVNULL)
            os.close(write)
            self.name = ":" + os.read(read, 64).decode().strip()
            os.close(read)
            if self.server.poll() is None and subprocess.run(["xdpyinfo", "-display", self.name], capture_output=True).returncode == 0:
                break
            self.server.kill()
            self.server.wait()
        conf = os.path.join(work, "bus.conf")
        with open(conf, "w") as f:
            f.write('<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN" '
                    '"http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd"><busconfig><type>session</type>'
                    f'<listen>unix:dir={work}</listen><auth>EXTERNAL</auth><policy context="default">'
                    '<allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy></busconfig>')
        self.bus = subprocess.Popen(["dbus-daemon", f"--config-file={conf}", "--nofork", "--print-address=1"],
                                    stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.address = self.bus.stdout.readline().decode().strip()
        self.x = x.XOpenDisplay(self.name.encode())
        if not self.x:
            raise SystemExit(f"window-bench: cannot open the display Xvfb said it made ({self.name!r}): a stale Xvfb or lock?")
        self.root = x.XDefaultRootWindow(self.x)
        x.XSelectInput(self.x, self.root, SUBSTRUCTURE_NOTIFY)
        x.XSync(self.x, 0)
        self.environment = dict(os.environ, DISPLAY=self.name, DBUS_SESSION_BUS_ADDRESS=self.address, HOME=work,
                                XDG_DATA_HOME=os.path.join(work, "data"), XDG_CONFIG_HOME=os.path.join(work, "config"),
                                XDG_CACHE_HOME=os.path.join(work, "cache"), XDG_RUNTIME_DIR=work, GDK_BACKEND="x11",
                                GSK_RENDERER="cairo", GSETTINGS_BACKEND="memory", NO_AT_BRIDGE="1", LANG="C.UTF-8", TZ="UTC")
        self.environment.pop("WAYLAND_DISPLAY", None)

    def mapped(self, deadline):
        """The next top-level window mapped (not override-redirect), or None by the deadline."""
        event = (ctypes.c_long * 24)()
        fd = x.XConnectionNumber(self.x)
        import select
        while time.monotonic() < deadline:
            while x.XPending(self.x):
                x.XNextEvent(self.x, event)
                if event[0] & 0xffffffff == MAP_NOTIFY and not (event[6] & 0xffffffff):
                    return event[5]
            select.select([fd], [], [], max(deadline - time.monotonic(), 0))
        return None

    def close(self):
        for process in (self.bus, self.server):
            process.terminate()
            process.wait()


def first_frame(display, argv):
    """Starts argv; returns (process, window, seconds from exec to its first painted frame)."""
    start = time.monotonic()
    process = subprocess.Popen(argv, env=display.environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    window = display.mapped(start + 30)
    if window is None:
        process.kill()
        raise SystemExit(f"window-bench: {argv[0]} mapped no window in 30 s")
    while time.monotonic() < start + 30:
        image = pixels(display.x, window)
        if image and min(image) != max(image):
            return process, window, time.monotonic() - start
        time.sleep(0.001)
    raise SystemExit(f"window-bench: {argv[0]} painted nothing in 30 s")


def rss_kb(pid):
    with open(f"/proc/{pid}/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))


def activity(pid):
    """({thread: context switches}, CPU seconds) of a process."""
    switches = {}
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/status") as f:
                switches[task] = sum(int(line.split()[1]) for line in f if "ctxt_switches" in line)
        except FileNotFoundError:
            pass
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return switches, (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cpu_ns(pid):
    """The CPU time a process's threads have run, in ns (schedstat: finer than the clock
    ticks of /proc/PID/stat)."""
    total = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/schedstat") as f:
                total += int(f.read().split()[0])
        except FileNotFoundError:
            pass
    return total


def wakeups(before, after):
    """Context switches between two samples, over the threads alive at both plus the new
    ones (a thread that ended took its count with it: summing all would go negative)."""
    return sum(count - before.get(task, 0) for task, count in after.items())


def stop(process):
    process.terminate()
    try:
        process.wait(5)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


work = tempfile.mkdtemp(prefix="nudge-window-bench.")
display = Display(work)
try:
    # 1,000 daily reminders, none due within ten minutes of now (the idle minute stays idle).
    now = time.gmtime()
    minute_now = now.tm_hour * 60 + now.tm_min
    minutes = [m for m in range(0, 1440) if min((m - minute_now) % 1440, (minute_now - m) % 1440) > 10][:1000]
    def add(chosen):
        for m in chosen:
            subprocess.run([nudge, "add", f"Reminder {m}", "--at", f"{m // 60:02d}:{m % 60:02d}"], env=display.environment,
                           stdout=subprocess.DEVNULL, check=True)
    add(minutes[:20])
    store = os.path.join(work, "data", "nudge", "nudge.sqlite")
    first_title = f"Reminder {min(minutes, key=lambda m: (m - minute_now) % 1440)}"

    floor = os.path.join(work, "adw-floor")
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "libadwaita-1"], capture_output=True, text=True, check=True).stdout.split()
    subprocess.run(["cc", "-O2", floor_source, "-o", floor] + flags, check=True)

    def starts(label):
        programs = (("nudge-window", [window_program]), ("floor", [floor]), ("gnome-clocks", [clocks]))
        runs = {name: [] for name, _ in programs}
        # A round first that is not counted (the first start after the store changed reads
        # it from the disk; a person's window starts from files read before), then 9.
        # Each turn in another order: what one program leaves the display and the bus busy
        # with (Clocks' portal and location calls) slows whichever follows it.
        for turn in range(1 + (only_starts or 9)):
            for name, argv in programs[turn % 3:] + programs[:turn % 3]:
                process, window, seconds = first_frame(display, argv)
                if turn > 0:
                    runs[name].append(seconds * 1000)
                stop(process)
        start = {name: statistics.median(values) for name, values in runs.items()}
        print(f"start (exec to first frame), {label}, ms: " + ", ".join(f"{name} {[round(v) for v in runs[name]]}" for name, _ in programs))
        figure(f"window: exec to first frame, {label}", start["nudge-window"], "ms", "GNOME Clocks", start["gnome-clocks"])
        figure(f"window: exec to first frame beside the C floor, {label}", start["nudge-window"], "ms",
               "AdwApplicationWindow with 20 AdwActionRows in C", start["floor"])

    # A list a person keeps (20 reminders), then the 1,000.
    starts("20 reminders")
    add(minutes[20:])
    starts(f"{len(minutes):,} reminders")
    if only_starts:
        raise SystemExit(0)

    measured = {}
    for name, argv in (("nudge-window", [window_program]), ("gnome-clocks", [clocks])):
        process, window, _ = first_frame(display, argv)
        time.sleep(2)
        rss = rss_kb(process.pid)
        before = activity(process.pid)
        time.sleep(idle_seconds)
        after = activity(process.pid)
        measured[name] = (rss, wakeups(before[0], after[0]), (after[1] - before[1]) * 1000, process, window)
        if name == "gnome-clocks":
            stop(process)
    figure("window: resident memory, list shown", measured["nudge-window"][0] / 1024, "MiB", "GNOME Clocks",
           measured["gnome-clocks"][0] / 1024)
    print(f"idle 60 s: nudge-window {measured['nudge-window'][1]} wake-ups, {measured['nudge-window'][2]:.0f} ms CPU; "
          f"gnome-clocks {measured['gnome-clocks'][1]} wake-ups, {measured['gnome-clocks'][2]:.0f} ms CPU")
    figure("window: wake-ups in 60 s idle", measured["nudge-window"][1], "wake-ups", "GNOME Clocks", measured["gnome-clocks"][1])
    figure("window: CPU in 60 s idle", measured["nudge-window"][2], "ms", "GNOME Clocks", measured["gnome-clocks"][2])

    # A change made by another process, to the frame that shows it.
    def change_frames(process, window, title, runs=5, anchor=None):
        """Switches the reminder `title` off or on in the store, `runs` times: the ms to
        the first changed frame and the window's CPU ms for each, and the anchor's ms
        after each (a command run once the window is idle again)."""
        database = sqlite3.connect(store, isolation_level=None)
        changes, cpu, anchors = [], [], []
        for run in range(runs):
            time.sleep(0.5)
            before = pixels(display.x, window)
            spent = cpu_ns(process.pid)
            database.execute("UPDATE alert SET enabled = 1 - enabled WHERE title = ?", (title,))
            changed = time.monotonic()
            while time.monotonic() < changed + 5:
                image = pixels(display.x, window)
                if image is not None and image != before:
                    break
                time.sleep(0.001)
            else:
                raise SystemExit("window-bench: the window did not show a change made in the store within 5 s")
            changes.append((time.monotonic() - changed) * 1000)
            # What the change cost the window, once it is idle again.
            time.sleep(0.5)
            cpu.append((cpu_ns(process.pid) - spent) / 1e6)
            if anchor:
                began = time.monotonic()
                subprocess.run(anchor, env=display.environment, stdout=subprocess.DEVNULL, check=True)
                anchors.append((time.monotonic() - began) * 1000)
        database.close()
        return changes, cpu, anchors

    process, window = measured["nudge-window"][3], measured["nudge-window"][4]
    # The reminder shown first (the next to come), so the change is on screen.
    changes, _, lists = change_frames(process, window, first_title, anchor=[nudge, "list"])
    stop(process)
    print(f"store change to frame, ms: {[round(c, 1) for c in changes]}; nudge list, ms: {[round(c, 1) for c in lists]}")
    figure("window: store change to new frame", statistics.median(changes), "ms", "nudge list reading it",
           statistics.median(lists))

    # The same among many reminders: one-shots on a fixed day far ahead, behind the daily
    # ones, written in one statement (adding them one by one would take minutes).
    database = sqlite3.connect(store, isolation_level=None)
    database.execute(f"""WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < {max(many - len(minutes), 1)})
        INSERT INTO alert (id, title, body, schedule, enabled, sound, urgency, icon, timeZone, graceSeconds, snoozeSeconds,
                           created, kind)
        SELECT lower(hex(randomblob(16))), 'Later ' || i, '', 'once ' || (4070908800 + i * 60) || '.0', 1, NULL, 1, '', NULL,
               3600, 600, 1e9 + i, 'reminder' FROM n""")
    many = database.execute("SELECT count(*) FROM alert").fetchone()[0]
    database.close()
    process, window, _ = first_frame(display, [window_program])
    changes, cpu, reads = change_frames(process, window, first_title, runs=9,
                                        anchor=["sqlite3", store, "SELECT * FROM alert"])
    stop(process)
    print(f"{many:,} reminders: store change to frame, ms: {[round(c, 1) for c in changes]}; window CPU, ms: "
          f"{[round(c, 1) for c in cpu]}; sqlite3 reading them, ms: {[round(c, 1) for c in reads]}")
    figure(f"window: store change to new frame, {many:,} reminders", statistics.median(changes), "ms",
           f"sqlite3 reading the {many:,} rows", statistics.median(reads))
    figure(f"window: CPU per store change, {many:,} reminders", statistics.median(cpu), "ms",
           f"sqlite3 reading the {many:,} rows", statistics.median(reads))
finally:
    display.close()
    shutil.rmtree(work, ignore_errors=True)
