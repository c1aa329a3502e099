#!/usr/bin/env bash
# The soak: icared at --time-scale 3600 through many simulated working days
# against the real dunst, with clicks, server restarts, do-not-disturb
# flapping, screen locks, config edits and kill -9 at random moments; then
# every signalled break must be in the history once, today's counters must
# equal the history, and open files and memory must stay flat. Prints a
# small table; exits 1 on any violation. Not part of the test suite.
#   bench/soak.sh                 30 working days (about 5 minutes)
#   DAYS=3 SEED=7 bench/soak.sh   a short run, repeatable faults
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh --test
swift build -c release --static-swift-stdlib >/dev/null
exec /usr/bin/python3 bench/soak.py "$(swift build -c release --static-swift-stdlib --show-bin-path)"
