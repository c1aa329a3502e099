#!/usr/bin/env bash
# The sounds' figures (issue 25), as a small table; read, not asserted.
#   bench/sound.sh                      60 idle seconds, 10 breaks, a hanging server
#   IDLE=20 ROUNDS=3 bench/sound.sh     a quicker look
# A real PipeWire, WirePlumber and pipewire-pulse run headless in a
# throwaway runtime folder (null speakers, as in SoundServiceTests), beside the
# release icared on a private bus with no notification server, so icared
# plays the sounds itself (SoundPlayedBy icared).
#
# Idle: VmRSS and context switches (all of icared's threads) over IDLE s,
# before any sound and again after the breaks: nothing of libcanberra or
# libpulse may be mapped, no thread or process left.
# Latency, per break (10 s, started with StartBreak): from BreakCompleted's
# own time (its argument, the break's end on the wall clock) to the first
# sample above -40 dBFS that `parecord` reads from the speakers' monitor
# (scripts/sound-onsets: the time its chunk was read, less the samples after
# it; 5 ms of recording latency, so an upper bound).
# A hanging server: pipewire-pulse stopped with SIGSTOP during a break; the
# sound's process waits for it, and `busctl get-property State` is timed 20
# times meanwhile (the service's loop never waits for a sound), and 20 times
# before, for comparison.
set -euo pipefail
cd "$(dirname "$0")/.."
IDLE=${IDLE:-60}
ROUNDS=${ROUNDS:-10}
. bench/lib.sh
bench_setup

mkdir -p "$work/run" "$work/config/pipewire/pipewire.conf.d" "$work/config/icare" "$work/state"
chmod 700 "$work/run"
cat >"$work/config/pipewire/pipewire.conf.d/bench.conf" <<'CONF'
context.objects = [
    { factory = adapter
      args = { factory.name = support.null-audio-sink node.name = bench-speakers
               media.class = Audio/Sink audio.position = [ FL FR ] } }
]
CONF
echo "BreakDuration = 10s" >"$work/config/icare/config"
export HOME="$work" XDG_RUNTIME_DIR="$work/run" XDG_CONFIG_HOME="$work/config" XDG_STATE_HOME="$work/state"

bench_session_bus

pipewire >"$work/pipewire.log" 2>&1 &
pids+=($!)
for _ in $(seq 500); do [ -S "$work/run/pipewire-0" ] && break; sleep 0.01; done
wireplumber >"$work/wireplumber.log" 2>&1 &
pids+=($!)
pipewire-pulse >"$work/pipewire-pulse.log" 2>&1 &
pulse=$!
pids+=($pulse)
for _ in $(seq 1000); do pactl list short sinks 2>/dev/null | grep -q bench-speakers && break; sleep 0.02; done

scripts/sound-onsets bench-speakers.monitor >"$work/onsets" 2>"$work/onsets.err" &
pids+=($!)
for _ in $(seq 500); do grep -q ready "$work/onsets" && break; sleep 0.01; done

bench_start_icared
get() { busctl --user get-property org.icare.Reminder /org/icare/Reminder org.icare.Reminder "$1"; }
[ "$(get SoundPlayedBy)" = 's "icared"' ] || { echo "icared does not play the sounds itself:" >&2; get SoundPlayedBy >&2; exit 1; }
ctx() { cat /proc/"$icared"/task/*/status | awk '/^voluntary_ctxt_switches/ {s+=$2} END {print s}'; }
rss() { awk '/VmRSS/ {print $2}' "/proc/$icared/status"; }
mapped() { grep -c -E 'canberra|libpulse|pulsecommon|libvorbis|libsndfile' "/proc/$icared/maps" || true; }
threads() { ls "/proc/$icared/task" | wc -l; }
children() { { pgrep -P "$icared" || true; } | wc -l; }
sleep 2

rss0=$(rss); threads0=$(threads); mapped0=$(mapped)
c0=$(ctx); sleep "$IDLE"; c1=$(ctx)
idle0=$(( c1 - c0 ))

python3 - "$ROUNDS" "$work" >"$work/latency.txt" <<'PY'
import re, subprocess, sys, threading, time
rounds, work = int(sys.argv[1]), sys.argv[2]
completed = []
def read_monitor(p):
    waiting = False
    for line in p.stdout:
        if "member=BreakCompleted" in line: waiting = True; continue
        m = re.match(r"\s+uint64 (\d+)", line)
        if waiting and m: completed.append(int(m.group(1))); waiting = False
mon = subprocess.Popen(["dbus-monitor", "--session", "type='signal',sender='org.icare.Reminder',member='BreakCompleted'"],
                       stdout=subprocess.PIPE, text=True, bufsize=1)
threading.Thread(target=read_monitor, args=(mon,), daemon=True).start()
time.sleep(1)
def call(*args):
    subprocess.run(["busctl", "--user", "call", "org.icare.Reminder", "/org/icare/Reminder", "org.icare.Reminder", *args],
                   check=True, stdout=subprocess.DEVNULL)
for i in range(rounds):
    n = len(completed)
    call("StartBreak")
    deadline = time.time() + 15
    while len(completed) == n and time.time() < deadline: time.sleep(0.01)
    time.sleep(2.5)  # the sound (1-2 s) ends and scripts/sound-onsets reports it
mon.kill()
onsets = [int(l.split()[1]) for l in open(f"{work}/onsets") if l.startswith("onset ")]
delays = []
for at in completed:
    after = [o for o in onsets if o >= at - 50_000]
    if after and after[0] - at < 2_000_000: delays.append((after[0] - at) / 1000)
def ms(xs): xs = sorted(xs); return (f"{xs[len(xs)//2]:.1f}", f"{xs[-1]:.1f}") if xs else ("-", "-")
print("breaks", len(completed))
print("heard", len(delays))
print("delay_p50 %s\ndelay_max %s" % ms(delays))
PY
val() { grep "^$1 " "$work/latency.txt" | cut -d' ' -f2; }

sleep 1
rss1=$(rss); threads1=$(threads); mapped1=$(mapped); children1=$(children)
c0=$(ctx); sleep "$IDLE"; c1=$(ctx)
idle1=$(( c1 - c0 ))

# Get(State) timed 20 times by busctl (its own start-up included), as "p50 max" in ms.
time_gets() {
  python3 - <<'PY'
import subprocess, time
times = []
for _ in range(20):
    t = time.monotonic()
    subprocess.run(["busctl", "--user", "get-property", "org.icare.Reminder", "/org/icare/Reminder", "org.icare.Reminder", "State"],
                   check=True, stdout=subprocess.DEVNULL)
    times.append((time.monotonic() - t) * 1000)
    time.sleep(0.15)
times.sort()
print("%.1f %.1f" % (times[len(times)//2], times[-1]))
PY
}
usual=$(time_gets)

# A server that hangs: stopped before the break's end; its sound waits, the service answers.
kill -STOP "$pulse"
busctl --user call org.icare.Reminder /org/icare/Reminder org.icare.Reminder StartBreak >/dev/null
for _ in $(seq 1500); do [ "$(get State)" = 's "waiting"' ] && break; sleep 0.01; done
hung=$(time_gets)
hung_children=$(children)
sleep 6
kill -CONT "$pulse"
said=$(grep -c "Sound: the sound server did not finish a sound within 5 s" "$work/icared.log" || true)

printf '%-60s %14s  %s\n' measure value target
printf '%-60s %14s  %s\n' "VmRSS idle, before any sound / after ${ROUNDS} breaks (kB)" "$rss0 / $rss1" "<= 10240"
printf '%-60s %14s  %s\n' "wake-ups in ${IDLE} s idle, before / after the sounds" "$idle0 / $idle1" "0 / 0"
printf '%-60s %14s  %s\n' "threads, before / after; sound processes left after" "$threads0 / $threads1; $children1" "2 / 2; 0"
printf '%-60s %14s  %s\n' "libcanberra, libpulse, decoders mapped, before / after" "$mapped0 / $mapped1" "0 / 0"
printf '%-60s %14s  %s\n' "breaks ended / sounds heard" "$(val breaks) / $(val heard)" "equal"
printf '%-60s %14s  %s\n' "BreakCompleted -> first loud sample (p50, ms)" "$(val delay_p50)" "<= 100"
printf '%-60s %14s  %s\n' "BreakCompleted -> first loud sample (max, ms)" "$(val delay_max)" "<= 100"
printf '%-60s %14s  %s\n' "server stopped: sound processes waiting / hang logged" "$hung_children / $said" "1 / 1"
printf '%-60s %14s  %s\n' "Get(State) by busctl, usual (p50 / max, ms)" "${usual/ / / }" "-"
printf '%-60s %14s  %s\n' "Get(State) by busctl, server stopped mid-sound (p50 / max, ms)" "${hung/ / / }" "as usual"
