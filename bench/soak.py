#!/usr/bin/python3
"""A soak of icared: many simulated working days against a real notification
server (dunst under Xvfb), with faults injected at random moments, then the
invariants checked. Run through bench/soak.sh (it builds the release binary).

Faults: clicks on the notification (dunstctl action / close) and icarectl
answers, dunst restarts, do-not-disturb flapping (dunstctl set-paused), screen
locks (python3-dbusmock's gnome_screensaver), config edits (some with a bad
line) and kill -9 of icared followed by a restart.

Invariants: every BreakCompleted / BreakSkipped signal has its record in the
history, no record is stored twice, today's counters equal the history, and
icared's open files and memory stay flat from the first tenth of the run to
the last.
"""
import json, os, random, shutil, signal, subprocess, sys, tempfile, time

BIN = sys.argv[1]
DAYS = float(os.environ.get('DAYS', '30'))
SEED = int(os.environ.get('SEED', str(int(time.time()))))
SCALE = 3600
random.seed(SEED)
work = tempfile.mkdtemp(prefix='icare-soak-')
children = []
faults = {}
env = dict(os.environ, LANG='C.UTF-8', XDG_CONFIG_HOME=f'{work}/config', XDG_STATE_HOME=f'{work}/state',
           XDG_RUNTIME_DIR=f'{work}/runtime', HOME=work, NO_COLOR='1')
os.makedirs(f'{work}/runtime', mode=0o700)
os.makedirs(f'{work}/config/icare')


def spawn(args, **kw):
    p = subprocess.Popen(args, env=env, stdin=subprocess.DEVNULL, **kw)
    children.append(p)
    return p


def run(args, timeout=30):
    return subprocess.run(args, env=env, capture_output=True, text=True, timeout=timeout)


def wait_for(cond, timeout=10):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.02)
    return False


def has_owner(name):
    r = run(['busctl', '--user', 'call', 'org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus',
             'NameHasOwner', 's', name])
    return r.stdout.strip() == 'b true'


def fault(kind):
    faults[kind] = faults.get(kind, 0) + 1


def cleanup(keep=False):
    for p in children:
        if p.poll() is None:
            p.kill()
            p.wait()
    if keep:
        print(f'soak: kept {work} (icared.log, monitor.json, state/) to look into')
    else:
        shutil.rmtree(work, ignore_errors=True)


# The bus, a display, the real notification server, a screensaver to lock.
bus = spawn(['dbus-daemon', '--session', '--nofork', '--nopidfile', '--print-address=1'], stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL)
env['DBUS_SESSION_BUS_ADDRESS'] = bus.stdout.readline().decode().strip()
r, w = os.pipe()
xvfb = spawn(['Xvfb', '-displayfd', str(w), '-nolisten', 'tcp', '-screen', '0', '800x600x24'], pass_fds=(w,),
             stderr=subprocess.DEVNULL)
os.close(w)
env['DISPLAY'] = ':' + os.read(r, 16).decode().strip()
env.pop('WAYLAND_DISPLAY', None)
dunst = None


def start_dunst():
    global dunst
    dunst = spawn(['dunst'], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if not wait_for(lambda: has_owner('org.freedesktop.Notifications')):
        raise SystemExit('soak: dunst did not start')


start_dunst()
spawn(['/usr/bin/python3', '-m', 'dbusmock', '--template', 'gnome_screensaver'], stdout=subprocess.DEVNULL,
      stderr=subprocess.DEVNULL)
wait_for(lambda: has_owner('org.gnome.ScreenSaver'))
monitor = spawn(['busctl', '--user', 'monitor', '--json=short', 'org.icare.Reminder'],
                stdout=open(f'{work}/monitor.json', 'w'), stderr=subprocess.DEVNULL)
config = f'{work}/config/icare/config'
with open(config, 'w') as f:
    f.write('Interval = 15m\nBreakDuration = 10s\n')

icared = None
samples = []  # (real time, pid, open files, VmRSS kB)


def start_icared():
    global icared
    icared = spawn([f'{BIN}/icared', '--time-scale', str(SCALE), '--log-stderr'], stdout=subprocess.DEVNULL,
                   stderr=open(f'{work}/icared.log', 'a'))
    if not wait_for(lambda: has_owner('org.icare.Reminder')):
        raise SystemExit('soak: icared did not start; see ' + work + '/icared.log')


def sample():
    try:
        files = len(os.listdir(f'/proc/{icared.pid}/fd'))
        with open(f'/proc/{icared.pid}/status') as f:
            rss = next(int(l.split()[1]) for l in f if l.startswith('VmRSS:'))
        samples.append((time.monotonic(), icared.pid, files, rss))
    except (FileNotFoundError, StopIteration, ProcessLookupError):
        pass


def state():
    r = run(['busctl', '--user', 'get-property', 'org.icare.Reminder', '/org/icare/Reminder', 'org.icare.Reminder', 'State'])
    return r.stdout.split('"')[1] if '"' in r.stdout else ''


def icarectl(*args):
    return run([f'{BIN}/icarectl', *args])


start_icared()
began = time.monotonic()
simulated = 0.0  # schedule seconds
locked = False
paused = False
last = time.monotonic()
try:
    while simulated < DAYS * 8 * 3600:
        now = time.monotonic()
        if state() != 'break':
            simulated += (now - last) * SCALE
        last = now
        sample()
        roll = random.random()
        s = state()
        if s == 'due':
            pick = random.random()
            if pick < 0.05:
                run(['dunstctl', 'action']); fault('click on the reminder (dunst)')
            elif pick < 0.25:
                icarectl('start'); fault('icarectl start')
            elif pick < 0.3:
                run(['dunstctl', 'close']); fault('reminder closed (dunst)')
            elif pick < 0.6:
                icarectl('skip'); fault('icarectl skip')
            elif pick < 0.8:
                icarectl('snooze', str(random.choice([1, 5, 10])) + 'm'); fault('icarectl snooze')
        elif s == 'break' and random.random() < 0.01:
            icarectl('skip'); fault('break ended early')
        # Rare enough that some breaks run to their end and some locks last a break.
        if roll < 0.01:
            icared.kill(); icared.wait(); fault('kill -9 of icared')
            start_icared()
        elif roll < 0.02:
            dunst.kill(); dunst.wait(); fault('notification server restart')
            start_dunst()
        elif roll < 0.03:
            paused = not paused
            run(['dunstctl', 'set-paused', 'true' if paused else 'false']); fault('do-not-disturb flap')
        elif roll < 0.05:
            locked = not locked
            run(['busctl', '--user', 'call', 'org.gnome.ScreenSaver', '/org/gnome/ScreenSaver', 'org.gnome.ScreenSaver',
                 'SetActive', 'b', 'true' if locked else 'false']); fault('screen lock')
        elif roll < 0.07:
            lines = [f'Interval = {random.choice([15, 20, 25])}m\n', f'BreakDuration = {random.choice([10, 12])}s\n']
            if random.random() < 0.3:
                lines.append('Interval = soon\n')
            with open(config + '.new', 'w') as f:
                f.writelines(lines)
            os.replace(config + '.new', config); fault('config edit')
        time.sleep(random.uniform(0.05, 0.4))
    # Settle: everything unlocked and undisturbed, then a clean stop and a fresh start to read back.
    run(['dunstctl', 'set-paused', 'false'])
    run(['busctl', '--user', 'call', 'org.gnome.ScreenSaver', '/org/gnome/ScreenSaver', 'org.gnome.ScreenSaver',
         'SetActive', 'b', 'false'])
    time.sleep(0.5)
    sample()
    icared.send_signal(signal.SIGTERM); icared.wait()
    start_icared()
    # Paused, so that no reminder expires into a record between the reads below.
    icarectl('pause')
    time.sleep(0.3)
    read_at = time.time()
    records = run(['busctl', '--user', '--json=short', 'call', 'org.icare.Reminder', '/org/icare/Reminder',
                   'org.icare.Reminder', 'GetHistory', 'tt', '0', str(2**63 - 1)])
    records = [tuple(x) for x in json.loads(records.stdout)['data'][0]]
    time.sleep(0.3)
    monitor.kill(); monitor.wait()

    violations = []
    signalled = {}
    with open(f'{work}/monitor.json') as f:
        for line in f:
            try:
                m = json.loads(line)
            except ValueError:
                continue
            if m.get('type') == 'signal' and m.get('member') in ('BreakCompleted', 'BreakSkipped'):
                at = m['payload']['data'][0]
                signalled[(at, 'completed' if m['member'] == 'BreakCompleted' else 'skipped')] = True
    stored = {}
    for at, outcome, _ in records:
        stored[(at, outcome)] = stored.get((at, outcome), 0) + 1
    for key in signalled:
        if key not in stored:
            violations.append(f'signalled but not in the history: {key} (read back at {int(read_at * 1e6)})')
    for key, n in stored.items():
        if n > 1:
            violations.append(f'stored {n} times: {key}')
    start_of_day = int(time.mktime(time.localtime()[:3] + (0, 0, 0, 0, 0, -1))) * 1_000_000
    today = [r for r in records if r[0] >= start_of_day]
    completed = sum(1 for r in today if r[1] in ('completed', 'natural'))
    skipped = sum(1 for r in today if r[1] == 'skipped')
    got = run(['busctl', '--user', 'get-property', 'org.icare.Reminder', '/org/icare/Reminder', 'org.icare.Reminder',
               'CompletedToday', 'SkippedToday']).stdout.split()
    if got != ['u', str(completed), 'u', str(skipped)]:
        violations.append(f'counters {got} but the history has {completed} completed, {skipped} skipped today')
    # Flat: the last tenth of the run against the first (each after an instance's first second).
    settled = [s for s in samples if s[0] - began > 1]
    tenth = max(1, len(settled) // 10)
    first, final = settled[:tenth], settled[-tenth:]
    files0, files1 = max(s[2] for s in first), max(s[2] for s in final)
    rss0, rss1 = max(s[3] for s in first), max(s[3] for s in final)
    if files1 > files0 + 2:
        violations.append(f'open files grew from {files0} to {files1}')
    if rss1 > rss0 * 1.25:
        violations.append(f'memory grew from {rss0} kB to {rss1} kB')

    print(f'iCare soak (seed {SEED}, time scale {SCALE}, {time.monotonic() - began:.0f} s real)')
    print()
    print('| measure | figure |')
    print('| --- | --- |')
    print(f'| working days simulated (8 h each) | {simulated / 28800:.1f} |')
    print(f'| faults injected | {sum(faults.values())} |')
    for kind in sorted(faults):
        print(f'| — {kind} | {faults[kind]} |')
    print(f'| records in the history | {len(records)} ({sum(1 for r in records if r[1] == "completed")} completed, '
          f'{sum(1 for r in records if r[1] == "skipped")} skipped, {sum(1 for r in records if r[1] == "natural")} natural) |')
    print(f'| breaks signalled | {len(signalled)} |')
    print(f'| open files, first tenth / last tenth | {files0} / {files1} |')
    print(f'| VmRSS kB, first tenth / last tenth | {rss0} / {rss1} |')
    print(f'| violations | {len(violations)} |')
    for v in violations[:20]:
        print('  ' + v)
    keep = bool(violations)
    sys.exit(1 if violations else 0)
finally:
    cleanup(keep=locals().get('keep', True))
