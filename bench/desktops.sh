#!/usr/bin/env bash
# What the real-desktop suites add to `swift test`: each suite's wall time,
# and the desktop's own cost while it runs (peak RSS and CPU of the shell
# the suite started, found by its private HOME). Not a test: figures are read,
# not asserted.
#   bench/desktops.sh
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh --test
swift build --build-tests >/dev/null

# $1 suite filter, $2 the desktop's process name, $3 the HOME prefix its rig gives it.
measure() {
  local filter=$1 comm=$2 home=$3 log peak=0 cpu=0 start end
  log=$(mktemp)
  start=$(date +%s.%N)
  swift test --skip-build --filter "$filter" >"$log" 2>&1 &
  local test=$!
  while kill -0 "$test" 2>/dev/null; do
    for pid in $(pgrep -x "$comm" || true); do
      tr '\0' '\n' <"/proc/$pid/environ" 2>/dev/null | grep -q "^HOME=$home" || continue
      rss=$(awk '/VmRSS/ {print $2}' "/proc/$pid/status" 2>/dev/null || echo 0)
      ticks=$(awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null || echo 0)
      [ "${rss:-0}" -gt "$peak" ] && peak=$rss
      [ "${ticks:-0}" -gt "$cpu" ] && cpu=$ticks
    done
    sleep 0.5
  done
  wait "$test" && result=passed || result=FAILED
  end=$(date +%s.%N)
  tests=$(grep -c '^✔ Test [A-Za-z]*() passed' "$log" || true)
  printf '| %s | %s | %d | %.0f s | %d MB | %.0f s |\n' "$filter" "$result" "$tests" "$(awk "BEGIN {print $end - $start}")" \
    $((peak / 1024)) "$(awk "BEGIN {print $cpu / $(getconf CLK_TCK)}")"
  rm -f "$log"
}

echo "| suite | result | tests | wall time | desktop's peak RSS | desktop's CPU |"
echo "| --- | --- | --- | --- | --- | --- |"
measure GnomeShellTests gnome-shell "${TMPDIR:-/tmp}/icare-gnome-"
