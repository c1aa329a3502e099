#!/usr/bin/env bash
# icared idle, bare and as installed: the release build started directly, then inside its unit's
# sandbox (scripts/unit-sandbox reading systemd/icared.service.in, as the tests run it), each on a
# session bus of its own. Prints VmRSS and the wake-ups (context switches) of an idle window.
# Not a test: figures are read, not asserted (docs/measured.md, "As installed").
#   bench/as-installed.sh          60 s idle windows
#   IDLE=10 bench/as-installed.sh  a quicker look
set -euo pipefail
cd "$(dirname "$0")/.."
IDLE=${IDLE:-60}
. bench/lib.sh
bench_setup

# $1: a label, $2: a folder name, then the command that starts icared. Prints one row.
measure() {
  local label=$1 home="$work/$2"; shift 2
  mkdir -p "$home/runtime"
  # A bus on a path: the unit's private network hides abstract sockets.
  dbus-daemon --session --nofork --nopidfile --address="unix:path=$home/runtime/bus" --print-address=1 >"$home/addr" 2>/dev/null &
  pids+=($!)
  for _ in $(seq 200); do [ -s "$home/addr" ] && break; sleep 0.01; done
  export DBUS_SESSION_BUS_ADDRESS=$(head -n1 "$home/addr")
  HOME="$home" XDG_RUNTIME_DIR="$home/runtime" XDG_CONFIG_HOME="$home/.config" XDG_STATE_HOME="$home/.local/state" \
    "$@" --log-stderr 2>"$home/icared.log" &
  local pid=$!
  pids+=($pid)
  for _ in $(seq 500); do owned org.icare.Reminder && break; sleep 0.01; done
  owned org.icare.Reminder || { echo "bench: icared ($label) did not take its name:" >&2; cat "$home/icared.log" >&2; exit 1; }
  sleep 2
  local rss c0 c1
  rss=$(awk '/VmRSS/ {print $2}' "/proc/$pid/status")
  ctx() { awk '/ctxt_switches/ {s+=$2} END {print s}' "/proc/$pid/status"; }
  c0=$(ctx); sleep "$IDLE"; c1=$(ctx)
  printf '%-34s %10s %14s\n' "$label" "$rss" "$((c1 - c0))"
  kill "$pid"; wait "$pid" 2>/dev/null || true
}

printf '%-34s %10s %14s\n' "icared, idle" "VmRSS kB" "wake-ups/${IDLE}s"
measure bare bare "$bin/icared"
measure "under icared.service's sandbox" unit scripts/unit-sandbox systemd/icared.service.in -- "$bin/icared"
echo "target: at most 10 MB (10240 kB) and 0 wake-ups, in both"
