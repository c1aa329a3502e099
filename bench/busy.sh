#!/usr/bin/env bash
# The busy watch's figures (issue 17), as a small table; read, not asserted.
#   bench/busy.sh                 60 idle seconds, then 10 recording streams
#   IDLE=20 ROUNDS=5 bench/busy.sh  a quicker look
# A real PipeWire and WirePlumber run headless in a throwaway runtime folder
# (null microphone and speakers, as in PipeWireBusyTests), beside icared on a
# private bus; GNOME's session manager and PowerDevil are absent, so their
# watches wait on NameOwnerChanged (no polling either way).
#
# Wake-ups: context switches of all of icared's threads (the main loop and
# libpipewire's own data-loop thread, which pw_context_new starts) over the
# idle window, with PipeWire connected and no stream running.
# Latency, per stream: from the moment `pw-mon` (another PipeWire client)
# prints the first node turning `running`, as read by this script, to the
# `time=` dbus-monitor stamps on icared's PropertiesChanged with Busy true.
# Both readers run on the same machine clock; pw-mon's line reaches the
# script a little after PipeWire sent it, so the figure may be a touch low.
# "exec" is from starting pw-record to the signal: the client's own start-up
# and WirePlumber's linking included, an upper bound.
set -euo pipefail
cd "$(dirname "$0")/.."
IDLE=${IDLE:-60}
ROUNDS=${ROUNDS:-10}
. bench/lib.sh
bench_setup

mkdir -p "$work/run" "$work/config/pipewire/pipewire.conf.d" "$work/state"
chmod 700 "$work/run"
cat >"$work/config/pipewire/pipewire.conf.d/bench.conf" <<'CONF'
context.objects = [
    { factory = adapter
      args = { factory.name = support.null-audio-sink node.name = bench-microphone
               media.class = Audio/Source/Virtual audio.position = [ FL FR ] } }
]
CONF
export XDG_RUNTIME_DIR="$work/run" XDG_CONFIG_HOME="$work/config" XDG_STATE_HOME="$work/state"

bench_session_bus

pipewire >"$work/pipewire.log" 2>&1 &
pids+=($!)
for _ in $(seq 500); do [ -S "$work/run/pipewire-0" ] && break; sleep 0.01; done
wireplumber >"$work/wireplumber.log" 2>&1 &
pids+=($!)
for _ in $(seq 1000); do pw-metadata -n default 0 default.audio.source 2>/dev/null | grep -q bench-microphone && break; sleep 0.02; done

bench_start_icared
grep -q "PipeWire is not running" "$work/icared.log" && { echo "icared did not reach PipeWire:" >&2; cat "$work/icared.log" >&2; exit 1; }
threads=$(ls "/proc/$icared/task" | wc -l)
ctx() { cat /proc/"$icared"/task/*/status | awk '/ctxt_switches/ {s+=$2} END {print s}'; }
sleep 2

c0=$(ctx); sleep "$IDLE"; c1=$(ctx)
idle=$(( c1 - c0 ))

python3 - "$ROUNDS" "$work" >"$work/latency.txt" <<'PY'
import re, subprocess, sys, threading, time
rounds, work = int(sys.argv[1]), sys.argv[2]
signals, running = [], []
def read_monitor(p):
    stamp = None
    for line in p.stdout:
        m = re.match(r"signal time=(\d+\.\d+) .*member=PropertiesChanged", line)
        if m: stamp = float(m.group(1)); continue
        if stamp is not None and "boolean true" in line and signals_pending[0]:
            signals.append(stamp); signals_pending[0] = False; stamp = None
def read_pwmon(p):
    for line in p.stdout:
        if 'state: "running"' in line and running_pending[0]:
            running.append(time.time()); running_pending[0] = False
signals_pending, running_pending = [False], [False]
mon = subprocess.Popen(["dbus-monitor", "--session", "type='signal',sender='org.icare.Reminder',member='PropertiesChanged'"],
                       stdout=subprocess.PIPE, text=True, bufsize=1)
pwmon = subprocess.Popen(["pw-mon"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)
threading.Thread(target=read_monitor, args=(mon,), daemon=True).start()
threading.Thread(target=read_pwmon, args=(pwmon,), daemon=True).start()
time.sleep(1.5)
execs = []
for i in range(rounds):
    signals_pending[0] = running_pending[0] = True
    n = len(signals)
    execs.append(time.time())
    rec = subprocess.Popen(["pw-record", f"{work}/round{i}.wav"], stderr=subprocess.DEVNULL)
    deadline = time.time() + 5
    while len(signals) == n and time.time() < deadline: time.sleep(0.001)
    rec.kill(); rec.wait()
    time.sleep(0.5)
    signals_pending[0] = running_pending[0] = False
mon.kill(); pwmon.kill()
def ms(xs): xs = sorted(xs); return (f"{1000*xs[len(xs)//2]:.1f}", f"{1000*xs[-1]:.1f}") if xs else ("-", "-")
pairs = [s - r for s, r in zip(signals, running)]
print("signals", len(signals))
print("running_p50 %s\nrunning_max %s" % ms(pairs))
print("exec_p50 %s\nexec_max %s" % ms([s - e for s, e in zip(signals, execs)]))
PY
val() { grep "^$1 " "$work/latency.txt" | cut -d' ' -f2; }

printf '%-52s %10s  %s\n' measure value target
printf '%-52s %10s  %s\n' "icared threads (main + libpipewire's data loop)" "$threads" "2"
printf '%-52s %10s  %s\n' "wake-ups in ${IDLE} s, PipeWire and inhibitor watches on" "$idle" "0"
printf '%-52s %10s  %s\n' "streams started / Busy signals seen" "$ROUNDS / $(val signals)" "equal"
printf '%-52s %10s  %s\n' "node running -> PropertiesChanged (p50, ms)" "$(val running_p50)" "<= 50"
printf '%-52s %10s  %s\n' "node running -> PropertiesChanged (max, ms)" "$(val running_max)" "<= 50"
printf '%-52s %10s  %s\n' "pw-record exec -> PropertiesChanged (p50, ms)" "$(val exec_p50)" "(upper bound)"
