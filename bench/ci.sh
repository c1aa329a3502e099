#!/usr/bin/env bash
# The whole of CI as it runs: `bash .ci/run` with CI=true in a fresh clone of
# HEAD, and each stage's wall time (scripts/test's "stage '…' took N s"
# lines) in a table, with the total. CI has 90 minutes on a 2-core machine;
# the target is under 60 from nothing. Not a test: figures are read, not
# asserted. Needs root (the roots). Its log stays in the clone's folder.
#
#   bench/ci.sh                  the roots and the Flatpak runtime as the machine has them
#   FROM_NOTHING=1 bench/ci.sh   every root in a fresh, empty ICARE_ROOTS, the Flatpak runtime in
#                                a fresh ICARE_FLATPAK_CACHE, piuparts' chroots in a fresh
#                                ICARE_PIUPARTS_CACHE and the previous version built anew in a fresh
#                                ICARE_PREVIOUS_CACHE (about 11 GB; removed after)
set -euo pipefail
cd "$(dirname "$0")/.."
# Where a person trying iCare would clone it: under /tmp, in a folder whose name has a space (the
# suite passes there: scripts/unit-sandbox keeps the sanitizers' files inside icared's PrivateTmp=).
clone=$(mktemp -d "/tmp/icare ci-bench.XXXXXX")
git clone -q . "$clone/icare"
fresh=""
if [ -n "${FROM_NOTHING:-}" ]; then
  fresh=$(mktemp -d /var/tmp/icare-ci-fresh.XXXXXX)
  export ICARE_ROOTS="$fresh/roots" ICARE_FLATPAK_CACHE="$fresh/flatpak" ICARE_PIUPARTS_CACHE="$fresh/piuparts" \
    ICARE_PREVIOUS_CACHE="$fresh/previous"
fi
log="$clone/ci.log"
start=$SECONDS
status=0
(cd "$clone/icare" && CI=true bash .ci/run) >"$log" 2>&1 </dev/null || status=$?
total=$((SECONDS - start))
[ -n "$fresh" ] && rm -rf "$fresh"

printf '%-40s %10s\n' "stage" "seconds"
grep -o "^scripts/test: stage '.*' took [0-9]* s" "$log" \
  | sed "s/^scripts\/test: stage '\(.*\)' took \([0-9]*\) s$/\1\t\2/" \
  | awk -F'\t' '{ printf "%-40s %10s\n", $1, $2 }'
printf '%-40s %10s\n' "the whole .ci/run (exit $status)" "$total"
echo "log: $log" >&2
exit "$status"
