#!/usr/bin/env bash
# What PlasmaTests add to the suite's time, as a small table; read, not asserted.
#   bench/plasma-suite.sh
# Runs the PlasmaTests target alone (each test starts a real headless Plasma
# 5.27 on X11 and one on Wayland; Swift Testing runs the three suites side
# by side) and prints each test's time for both sessions, and the whole run's
# wall-clock time and the CPU time of everything it started (the sessions
# included: their processes are the runner's children).
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --build-tests >/dev/null
out=$(mktemp)
trap 'rm -f "$out"' EXIT
start=$(date +%s.%N)
# times: the runner's and its children's user and system seconds, once they have ended.
status=0
bash -c 'swift test --skip-build --filter "PlasmaTests\\." >"$1" 2>&1; s=$?; times; exit $s' _ "$out" >"$out.times" || status=$?
end=$(date +%s.%N)
printf '| %-60s | %8s |\n' "test (X11 and Wayland)" "seconds"
printf '| %-60s | %8s |\n' "---" "---:"
sed -n 's/^.* Test \(.*\)(_:) with 2 test cases \(passed\|failed\) after \([0-9.]*\) seconds.*$/\1 \2 \3/p' "$out" |
  while read -r name result seconds; do printf '| %-60s | %8s |\n' "$name ($result)" "$seconds"; done
printf '| %-60s | %8.1f |\n' "the target, wall clock" "$(echo "$end - $start" | bc)"
children=$(sed -n 2p "$out.times")
printf '| %-60s | %8s |\n' "CPU of the runner and the processes it reaped (user system)" "$children"
rm -f "$out.times"
exit "$status"
