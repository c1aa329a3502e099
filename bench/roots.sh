#!/usr/bin/env bash
# What the Debian 13 / testing roots cost (scripts/desktop-root, RootDesktopTests):
# a root made from nothing and reused, the package's install, and each root
# suite's wall time. Not a test: figures are read, not asserted. Needs root.
#
#   bench/roots.sh               the roots in the usual cache (made only when missing or stale)
#   FROM_NOTHING=1 bench/roots.sh
#                                also makes each root again in a fresh folder (about 6 min and
#                                2.2 GB each, removed after)
#   RELEASES=forky bench/roots.sh    one release only (default: trixie forky; RELEASES= : the suites only)
#   ICARE_DEB=PATH bench/roots.sh    the package to install (default: build/deb/icare_*.deb;
#                                `make deb` when there is none)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh --test
. bench/lib.sh
bench_root_package

seconds() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }
row() { printf '%-44s %10s\n' "$1" "$2"; }

row "what" "seconds"
for release in ${RELEASES-trixie forky}; do
  if [ -n "${FROM_NOTHING:-}" ]; then
    fresh=$(mktemp -d /var/tmp/icare-roots-bench.XXXXXX)
    t0=$(date +%s.%N)
    ICARE_ROOTS=$fresh scripts/desktop-root build "$release" >/dev/null 2>&1
    row "$release: root from nothing ($(du -sh "$fresh/$release" | cut -f1))" "$(seconds "$t0")"
    rm -rf "$fresh"
  fi
  t0=$(date +%s.%N)
  scripts/desktop-root build "$release" >/dev/null 2>&1
  row "$release: root build, reused (or made when stale)" "$(seconds "$t0")"
  root=$(scripts/desktop-root path "$release")
  rm -f "$root/.icare-deb"   # so that the install below is a real one
  t0=$(date +%s.%N)
  scripts/desktop-root install-deb "$release" "$ICARE_DEB" >/dev/null 2>&1
  row "$release: apt-get install ./$(basename "$ICARE_DEB")" "$(seconds "$t0")"
  t0=$(date +%s.%N)
  scripts/desktop-root install-deb "$release" "$ICARE_DEB" >/dev/null 2>&1
  row "$release: the same package again (a no-op)" "$(seconds "$t0")"
  row "$release: root size ($(du -sh "$root" | cut -f1))" "-"
done
# Every suite of RootDesktopTests alone, one at a time (scripts/test runs them in two lanes of one suite at a time), each for both releases.
suites=$(grep -hoE '^(@Suite.* )?struct [A-Za-z]+Tests' Tests/RootDesktopTests/*.swift | awk '{print $NF}' | sort -u)
t_all=$(date +%s.%N)
for suite in $suites; do
  t0=$(date +%s.%N)
  if "$tests" --testing-library swift-testing --no-parallel --filter "RootDesktopTests\.$suite/" >/tmp/icare-bench-roots.log 2>&1; then
    result=passed
  else
    result=FAILED
  fi
  row "$suite ($result)" "$(seconds "$t0")"
done
row "all root suites" "$(seconds "$t_all")"
