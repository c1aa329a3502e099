#!/usr/bin/env bash
# Measures icared against the targets of the issues and prints a small table.
# Not a test: this machine is shared and noisy, so figures are read, not asserted.
#   bench/run.sh            full run (about 6 minutes: four 60 s idle windows, two of
#                           them with the Wayland idle watch on a headless sway, a 30 s break)
#   IDLE=10 BREAK=10 bench/run.sh   a quicker look
#   SUITE=1 bench/run.sh    also times the whole test suite (`swift test` after
#                           a debug build, as scripts/test runs it; a few more minutes)
set -euo pipefail
cd "$(dirname "$0")/.."
IDLE=${IDLE:-60}
BREAK=${BREAK:-30}
SUITE=${SUITE:-0}
scripts/deps.sh --test
command -v strace >/dev/null || { echo "bench: strace is needed (apt-get install strace)" >&2; exit 1; }
# The release build as `make` makes it (static Swift runtime).
. bench/lib.sh
bench_setup

start_icared() { # $1: XDG home
  XDG_CONFIG_HOME="$1/config" XDG_STATE_HOME="$1/state" bench_start_icared
  icared_pid=$icared
}
stop_icared() { kill "$icared_pid"; wait "$icared_pid" 2>/dev/null || true; }
val() { grep "^$1 " "$2" | cut -d' ' -f2; }

bench_session_bus
export XDG_CONFIG_HOME="$work/spawn/config" XDG_STATE_HOME="$work/spawn/state"
"$bin/icare-bench" spawn 20 "$bin/icared" >"$work/spawn.txt" 2>>"$work/icared.log"
unset XDG_CONFIG_HOME XDG_STATE_HOME

start_icared "$work/main"
sleep 2
rss_kb=$(awk '/VmRSS/ {print $2}' "/proc/$icared_pid/status")
ctx() { awk '/ctxt_switches/ {s+=$2} END {print s}' "/proc/$icared_pid/status"; }
# Wake-ups: context switches of the idle process (reading /proc does not wake it).
c0=$(ctx); sleep "$IDLE"; c1=$(ctx)
wakeups=$(( c1 - c0 ))
# Syscalls: a second idle window under strace (its attach does not count as a call).
timeout --signal=INT "$IDLE" strace -f -c -p "$icared_pid" -o "$work/strace.txt" 2>/dev/null || true
syscalls=$(awk '/total/ {print $3}' "$work/strace.txt"); syscalls=${syscalls:-0}

"$bin/icare-bench" roundtrip 5000 >"$work/rt.txt"
"$bin/icare-bench" countdown "$BREAK" >"$work/cd.txt"
stop_icared

# The Wayland idle watch on: a headless sway (as nobody when root: sway refuses
# root) and an icared watching it. The window starts once sway has said idle
# (BreakDuration = 10 s after the watch began): from then on nothing is due.
sway_dir="$work/sway"; mkdir -p "$sway_dir/run"; chmod 711 "$work"; chmod 755 "$sway_dir"; chmod 700 "$sway_dir/run"
printf 'output HEADLESS-1 resolution 640x480\n' >"$sway_dir/config"; chmod 644 "$sway_dir/config"
as_user=()
if [ "$(id -u)" -eq 0 ]; then chown nobody "$sway_dir/run"; as_user=(setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=-all); fi
env -u WAYLAND_DISPLAY -u DISPLAY HOME="$sway_dir" XDG_RUNTIME_DIR="$sway_dir/run" WLR_BACKENDS=headless \
  WLR_LIBINPUT_NO_DEVICES=1 WLR_RENDERER=pixman "${as_user[@]}" sway -c "$sway_dir/config" >"$sway_dir/log" 2>&1 &
pids+=($!)
sock=""
for _ in $(seq 300); do sock=$(ls "$sway_dir/run" | grep -E '^wayland-[0-9]+$' | head -n1 || true); [ -n "$sock" ] && break; sleep 0.05; done
[ -n "$sock" ] || { echo "bench: headless sway did not start:" >&2; cat "$sway_dir/log" >&2; exit 1; }
mkdir -p "$work/w/config/icare"; printf 'BreakDuration = 10s\n' >"$work/w/config/icare/config"
WAYLAND_DISPLAY="$sway_dir/run/$sock" XDG_CONFIG_HOME="$work/w/config" XDG_STATE_HOME="$work/w/state" \
  "$bin/icared" --log-stderr --debug 2>"$work/wayland.log" &
wl_pid=$!; pids+=($wl_pid)
for _ in $(seq 400); do grep -q "presence: idle for" "$work/wayland.log" && break; sleep 0.05; done
grep -q "presence: idle for" "$work/wayland.log" || { echo "bench: icared never saw sway go idle:" >&2; cat "$work/wayland.log" >&2; exit 1; }
wl_ctx() { awk '/ctxt_switches/ {s+=$2} END {print s}' "/proc/$wl_pid/status"; }
sleep 1; w0=$(wl_ctx); sleep "$IDLE"; w1=$(wl_ctx)
wayland_wakeups=$(( w1 - w0 ))
timeout --signal=INT "$IDLE" strace -f -c -p "$wl_pid" -o "$work/strace-wl.txt" 2>/dev/null || true
wayland_syscalls=$(awk '/total/ {print $3}' "$work/strace-wl.txt"); wayland_syscalls=${wayland_syscalls:-0}
kill "$wl_pid"; wait "$wl_pid" 2>/dev/null || true


# History: one day against five years of synthetic records (20 breaks a day).
make_history() { # $1: dir, $2: days
  python3 - "$1" "$2" <<'PY'
import sys, os, time, zlib, datetime
root, days = sys.argv[1], int(sys.argv[2])
d = os.path.join(root, "state", "icare", "history"); os.makedirs(d, mode=0o700, exist_ok=True)
now = int(time.time()); day0 = now - now % 86400
for k in range(days):
    start = day0 - k * 86400
    name = datetime.datetime.utcfromtimestamp(start).strftime("%Y-%m-%d")
    with open(os.path.join(d, name), "w") as f:
        for i in range(20):
            at = (start + 8 * 3600 + i * 1200) * 1_000_000
            outcome = "completed" if i % 4 else "skipped"
            line = f"{at} {outcome} {20 if i % 4 else 0}"
            f.write(f"{line} {zlib.crc32(line.encode()):08x}\n")
PY
}
today_from=$(( ($(date +%s) - $(date +%s) % 86400) * 1000000 )); today_to=$(( today_from + 86400000000 ))
for n in 1 1826; do
  make_history "$work/h$n" "$n"
  XDG_CONFIG_HOME="$work/h$n/config" XDG_STATE_HOME="$work/h$n/state" "$bin/icare-bench" spawn 20 "$bin/icared" 2>>"$work/icared.log" \
    | sed 's/^spawn.p50_us/startup_us/' >"$work/h$n.txt"
  start_icared "$work/h$n"
  "$bin/icare-bench" gethistory 2000 "$today_from" "$today_to" >>"$work/h$n.txt"
  stop_icared
done

# The test suite last, so its load does not disturb the figures above.
suite="not timed (SUITE=1)"
if [ "$SUITE" = 1 ]; then
  swift build --build-tests >/dev/null
  t0=$(date +%s%N)
  if swift test >"$work/suite.txt" 2>&1; then result=passed; else result=FAILED; fi
  t1=$(date +%s%N)
  tests=$(grep -o 'Test run with [0-9]* tests' "$work/suite.txt" | tail -n1 | awk '{print $4}')
  suite="$(( (t1 - t0) / 1000000000 )) s (${tests:-?} tests, $result)"
  [ "$result" = passed ] || tail -n 30 "$work/suite.txt" >&2
fi

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
ga=$(val getall.p50_us "$work/rt.txt"); pi=$(val ping_icared.p50_us "$work/rt.txt"); pb=$(val ping_bus.p50_us "$work/rt.txt")
s1=$(val startup_us "$work/h1.txt"); s5=$(val startup_us "$work/h1826.txt")
g1=$(val gethistory.p50_us "$work/h1.txt"); g5=$(val gethistory.p50_us "$work/h1826.txt")
printf '%-44s %-16s %s\n' "measure" "figure" "target"
printf '%-44s %-16s %s\n' "idle RSS of icared (release)" "$(awk -v k="$rss_kb" 'BEGIN{printf "%.1f MB", k/1024}')" "< 12 MB"
printf '%-44s %-16s %s\n' "wake-ups over ${IDLE} s idle (all watchers on)" "$wakeups" "0"
printf '%-44s %-16s %s\n' "syscalls over ${IDLE} s idle" "$syscalls" "0"
printf '%-44s %-16s %s\n' "wake-ups / syscalls over ${IDLE} s, Wayland watch" "$wayland_wakeups / $wayland_syscalls" "0"
printf '%-44s %-16s %s\n' "spawn to name owned (p50 / max of 20)" "$(( $(val spawn.p50_us "$work/spawn.txt") / 1000 )).$(( $(val spawn.p50_us "$work/spawn.txt") % 1000 / 100 )) / $(( $(val spawn.max_us "$work/spawn.txt") / 1000 )) ms" "< 10 ms"
printf '%-44s %-16s %s\n' "GetAll round trip p50 (calls/s)" "${ga} µs ($(val getall.per_s "$work/rt.txt"))" ""
printf '%-44s %-16s %s\n' "Get(State) round trip p50 (calls/s)" "$(val get.p50_us "$work/rt.txt") µs ($(val get.per_s "$work/rt.txt"))" ""
printf '%-44s %-16s %s\n' "Peer.Ping on icared p50 (calls/s)" "${pi} µs ($(val ping_icared.per_s "$work/rt.txt"))" ""
printf '%-44s %-16s %s\n' "Peer.Ping on dbus-daemon p50 (calls/s)" "${pb} µs ($(val ping_bus.per_s "$work/rt.txt"))" ""
printf '%-44s %-16s %s\n' "GetAll / icared Ping" "$(ratio "$ga" "$pi")x" "<= 1.3x"
printf '%-44s %-16s %s\n' "icared Ping / dbus-daemon Ping" "$(ratio "$pi" "$pb")x" "<= 2.5x"
printf '%-44s %-16s %s\n' "countdown updates: worst offset from its second" "$(( $(val countdown.max_offset_us "$work/cd.txt") / 1000 )) ms ($(val countdown.updates "$work/cd.txt") updates)" "<= 20 ms"
printf '%-44s %-16s %s\n' "start-up, 1 day / 5 years of history" "$(( s1 / 1000 )) / $(( s5 / 1000 )) ms ($(ratio "$s5" "$s1")x)" "<= 1.2x"
printf '%-44s %-16s %s\n' "GetHistory today p50, 1 day / 5 years" "$g1 / $g5 µs ($(ratio "$g5" "$g1")x)" "<= 1.2x"
printf '%-44s %-16s %s\n' "full test suite (swift test, after a build)" "$suite" ""
