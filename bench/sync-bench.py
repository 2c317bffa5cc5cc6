#!/usr/bin/python3
"""nudge sync against a real Radicale on 127.0.0.1, beside python-caldav doing the same
work against the same server in the same run (the "phone", and the anchor):

  - the first sync of a followed calendar of 1,000 events with alarms, against
    python-caldav fetching all 1,000 with their data;
  - a sync where nothing changed: wall time, the sync process's CPU, and requests (counted
    by the tests' own proxy, through which both clients go), against python-caldav asking
    the same calendar what changed since its token; both as the daemon syncs (`nudge-sync
    serve`, started once and asked over a socket) and as `nudge sync now` does (a process
    of its own);
  - a sync after one event changed on the phone (the change is a reminder here when it
    ends), against python-caldav fetching that change.

Usage: bench/sync-bench.py NUDGE [COUNT]  (NUDGE: the built nudge, nudge-sync beside it).
Runs in a session bus of its own with gnome-keyring; needs radicale, python3-caldav,
gnome-keyring, dbus-daemon (make deps)."""
import os, resource, shutil, socket, statistics, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from figure import figure

import caldav

NUDGE = os.path.abspath(sys.argv[1])
COUNT = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
RUNS = 5
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port, seconds=20):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise SystemExit(f"sync-bench: nothing listens on {port}")


work = tempfile.mkdtemp(prefix="nudge-sync-bench-")
procs = []
try:
    port, proxy_port = free_port(), free_port()
    with open(f"{work}/users", "w") as f:
        f.write("ann:pw\n")
    with open(f"{work}/config", "w") as f:
        f.write(f"[server]\nhosts = 127.0.0.1:{port}\n[auth]\ntype = htpasswd\nhtpasswd_filename = {work}/users\n"
                f"htpasswd_encryption = plain\n[storage]\nfilesystem_folder = {work}/collections\n[rights]\ntype = owner_only\n"
                f"[logging]\nlevel = warning\n")
    procs.append(subprocess.Popen(["/usr/bin/radicale", "--config", f"{work}/config"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
    mode = f"{work}/proxy-mode"
    open(mode, "w").write("pass\n")
    procs.append(subprocess.Popen(["/usr/bin/python3", f"{ROOT}/Tests/bench/fault-proxy.py", str(proxy_port), str(port), mode],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
    wait_port(port)
    wait_port(proxy_port)
    url = f"http://127.0.0.1:{proxy_port}/"

    # A session of its own: bus, keyring, data.
    env = dict(os.environ, XDG_DATA_HOME=f"{work}/data", XDG_RUNTIME_DIR=f"{work}/run", HOME=f"{work}/home", TZ="Asia/Seoul", LANG="C")
    for d in ("data", "run", "home"):
        os.makedirs(f"{work}/{d}", mode=0o700, exist_ok=True)
    bus = subprocess.run(["dbus-daemon", "--session", "--fork", "--print-address=1", "--print-pid=1"], capture_output=True, text=True, env=env)
    address, bus_pid = bus.stdout.split()[0], int(bus.stdout.split()[1])
    env["DBUS_SESSION_BUS_ADDRESS"] = address
    open(f"{work}/unlock", "w").write("keyring")
    procs.append(subprocess.Popen(["/usr/bin/gnome-keyring-daemon", "--foreground", "--unlock", "--components=secrets"],
                                  stdin=open(f"{work}/unlock"), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env))
    time.sleep(1)

    # The phone: Nudge's calendar, and one of COUNT events with alarms.
    phone = caldav.DAVClient(url=url, username="ann", password="pw")
    principal = phone.principal()
    principal.make_calendar(name="Reminders")
    followed = principal.make_calendar(name="Phone")
    for i in range(COUNT):
        followed.save_event(f"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//bench//EN\r\nBEGIN:VEVENT\r\nUID:e{i}@bench\r\n"
                            f"DTSTAMP:20261120T100000Z\r\nDTSTART:2030{1 + i % 12:02d}{1 + i % 28:02d}T{8 + i % 12:02d}0000Z\r\n"
                            f"SUMMARY:Event {i}\r\nBEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER:-PT15M\r\nDESCRIPTION:Event {i}\r\n"
                            f"END:VALARM\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n")

    def nudge(*arguments, stdin=None):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.monotonic()
        done = subprocess.run([NUDGE, *arguments], input=stdin, capture_output=True, text=True, env=env)
        wall = time.monotonic() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if done.returncode != 0:
            raise SystemExit(f"sync-bench: nudge {' '.join(arguments)}: {done.stderr}")
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        return wall, cpu, done.stdout

    def requests(run):
        log = f"{mode}.log"
        before = len(open(log).readlines()) if os.path.exists(log) else 0
        result = run()
        return result, len(open(log).readlines()) - before

    nudge("sync", "add", url, "--user", "ann", "--password-stdin", "--own", "Reminders", stdin="pw\n")
    nudge("sync", "choose", "--follow", "Phone")
    print(f"sync-bench: {COUNT} events with alarms in a followed calendar on Radicale, through a counting proxy")

    # The first sync of all of them, once (it is first only once), beside python-caldav's fetch of them all.
    (first, _, out), first_requests = requests(lambda: nudge("sync", "now"))
    assert f"{COUNT} fetched" in out, out
    start = time.monotonic()
    objects = followed.objects_by_sync_token(load_objects=True)
    python_first = time.monotonic() - start
    token = objects.sync_token
    figure(f"sync: first sync, {COUNT} events (nudge sync now)", first * 1000, "ms", "python-caldav fetching them all", python_first * 1000)
    print(f"  requests: nudge {first_requests}")

    # Nothing changed.
    walls, cpus, counts, anchors, anchor_cpus = [], [], [], [], []
    for _ in range(RUNS):
        (result, count) = requests(lambda: nudge("sync", "now"))
        walls.append(result[0]); cpus.append(result[1]); counts.append(count)
        start, cpu = time.monotonic(), time.process_time()
        followed.objects_by_sync_token(sync_token=token, load_objects=False)
        anchors.append(time.monotonic() - start); anchor_cpus.append(time.process_time() - cpu)
    anchor = statistics.median(anchors) * 1000
    # The whole command (nudge, then nudge-sync: its start, the keyring, the store) against
    # the one request python-caldav makes from a process already running.
    figure(f"sync: nothing changed, {COUNT} events", statistics.median(walls) * 1000, "ms", "python-caldav asking what changed", anchor)
    figure(f"sync: nothing changed, {COUNT} events, CPU of the sync", statistics.median(cpus) * 1000, "ms",
           "python-caldav's CPU asking what changed", statistics.median(anchor_cpus) * 1000)
    # Requests per calendar synced (two here: Nudge's and the followed one), against the one a client needs.
    figure("sync: nothing changed, requests per calendar", statistics.median(counts) / 2, "requests", "one sync-collection REPORT", 1)

    # The daemon's way: nudge-sync serve, started once and asked over a socket, as the daemon
    # asks it; its CPU is what it says a sync took (CLOCK_PROCESS_CPUTIME_ID around the sync).
    parent, child = socket.socketpair()
    serve = subprocess.Popen([os.path.join(os.path.dirname(NUDGE), "nudge-sync"), "serve"], stdin=child, stdout=child,
                             stderr=subprocess.DEVNULL, env=env)
    procs.append(serve)
    child.close()
    answers = parent.makefile("r")

    def ask():
        start = time.monotonic()
        parent.sendall(b"sync\n")
        words = answers.readline().split()
        wall = time.monotonic() - start
        assert words[:2] == ["exit", "0"], words
        return wall, int(words[words.index("cpu-us") + 1]) / 1e6

    ask()  # the process's first sync: the store, libcurl and the runtime's first use
    walls, cpus, counts, anchors, anchor_cpus = [], [], [], [], []
    for _ in range(RUNS * 4):
        (result, count) = requests(ask)
        walls.append(result[0]); cpus.append(result[1]); counts.append(count)
        start, cpu = time.monotonic(), time.process_time()
        followed.objects_by_sync_token(sync_token=token, load_objects=False)
        anchors.append(time.monotonic() - start); anchor_cpus.append(time.process_time() - cpu)
    figure(f"sync: nothing changed, {COUNT} events, the daemon's sync process", statistics.median(walls) * 1000, "ms",
           "python-caldav asking what changed", statistics.median(anchors) * 1000)
    figure(f"sync: nothing changed, {COUNT} events, CPU of the daemon's sync process", statistics.median(cpus) * 1000, "ms",
           "python-caldav's CPU asking what changed", statistics.median(anchor_cpus) * 1000)
    print(f"  requests: {statistics.median(counts):g} (two calendars); CPU {min(cpus) * 1000:.1f}–{max(cpus) * 1000:.1f} ms")
    # What it holds between syncs, and whether anything wakes it.
    def status(field):
        for line in open(f"/proc/{serve.pid}/status"):
            if line.startswith(field + ":"):
                return int(line.split()[1])
    switches = status("voluntary_ctxt_switches") + status("nonvoluntary_ctxt_switches")
    time.sleep(10)
    woke = status("voluntary_ctxt_switches") + status("nonvoluntary_ctxt_switches") - switches
    print(f"  the sync process between syncs: RSS {status('VmRSS') / 1024:.1f} MB, {woke} wake-ups in 10 s")

    # One event changed on the phone.
    walls, counts, anchors = [], [], []
    for run in range(RUNS):
        event = followed.event_by_uid(f"e{run}@bench")
        event.data = event.data.replace(f"SUMMARY:Event {run}", f"SUMMARY:Moved {run}")
        event.save()
        (result, count) = requests(lambda: nudge("sync", "now"))
        assert "1 fetched, 1 changed here" in result[2], result[2]
        walls.append(result[0]); counts.append(count)
        start = time.monotonic()
        changes = followed.objects_by_sync_token(sync_token=token, load_objects=True)
        token = changes.sync_token
        anchors.append(time.monotonic() - start)
    figure(f"sync: one event changed on the phone, {COUNT} events", statistics.median(walls) * 1000, "ms",
           "python-caldav fetching the change", statistics.median(anchors) * 1000)
    figure("sync: one event changed, requests (two calendars)", statistics.median(counts), "requests",
           "a sync-collection REPORT a calendar and a multiget", 3)
finally:
    for p in procs:
        p.terminate()
    for p in procs:
        try:
            p.wait(5)
        except subprocess.TimeoutExpired:
            p.kill()
    try:
        os.kill(bus_pid, 15)
    except Exception:
        pass
    shutil.rmtree(work, ignore_errors=True)
