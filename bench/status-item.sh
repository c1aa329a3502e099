#!/usr/bin/env bash
# The status item's figures (issue 16), as a small table; read, not asserted.
#   bench/status-item.sh          two 60 s idle windows (no watcher; a watcher and the item shown)
#   IDLE=20 bench/status-item.sh  a quicker look
# With the item shown and no break due, icared should wake once per ring step
# (Interval / 60: every 20 s at the default 20 min) and not otherwise; with no
# watcher, not at all. A wake-up is a voluntary context switch: icared sleeps
# in epoll_wait and the kernel wakes it. Involuntary switches are counted
# apart: they are not wake-ups but preemptions while icared is already
# running — the NewIcon it sends wakes dbus-daemon (and the watcher), which
# may take the CPU from it on a busy machine (strace -tt shows epoll_wait
# returning exactly once per step). VmRSS is read from the same icared
# before the watcher comes (nothing exported) and with the item shown.
set -euo pipefail
cd "$(dirname "$0")/.."
IDLE=${IDLE:-60}
. bench/lib.sh
bench_setup

bench_session_bus
# The status item lives on a connection of its own that owns no well-known name
# (Sources/StatusItem): the unique name of icared's connection serving it.
item_owner() {
  busctl --user list --no-legend 2>/dev/null | awk -v p="$1" '$1 ~ /^:/ && $2 == p {print $1}' | while read -r n; do
    busctl --user introspect "$n" /StatusNotifierItem org.kde.StatusNotifierItem >/dev/null 2>&1 && { echo "$n"; break; }
  done || true
}

XDG_CONFIG_HOME="$work/config" XDG_STATE_HOME="$work/state" bench_start_icared
ctx() { awk -v k="$1" '$1 == k":" {print $2}' "/proc/$icared/status"; }
rss() { awk '/VmRSS/ {print $2}' "/proc/$icared/status"; }
sleep 2

v0=$(ctx voluntary_ctxt_switches); n0=$(ctx nonvoluntary_ctxt_switches); sleep "$IDLE"
none=$(( $(ctx voluntary_ctxt_switches) - v0 )); none_pre=$(( $(ctx nonvoluntary_ctxt_switches) - n0 ))
rss_none=$(rss)

"$bin/icare-bench" watcher $(( IDLE + 4 )) >"$work/watcher.txt" &
pids+=($!)
for _ in $(seq 500); do [ -n "$(item_owner "$icared")" ] && break; sleep 0.01; done
[ -n "$(item_owner "$icared")" ] || { echo "status-item.sh: the status item never came" >&2; exit 1; }
sleep 2
v0=$(ctx voluntary_ctxt_switches); n0=$(ctx nonvoluntary_ctxt_switches); sleep "$IDLE"
shown=$(( $(ctx voluntary_ctxt_switches) - v0 )); shown_pre=$(( $(ctx nonvoluntary_ctxt_switches) - n0 ))
rss_kb=$(rss)
wait "${pids[-1]}" || true
"$bin/icare-bench" render 200 >"$work/render.txt"
# How much of the hot-function list (scripts/hot-functions) icared still has:
# a list gone stale after much new code costs memory, not correctness.
grep -v '^#' Sources/icared/link/hot-functions.txt | sort -u >"$work/hot"
nm --defined-only "$bin/icared" | awk '{print $3}' | sort -u >"$work/defined"
hot_found=$(comm -12 "$work/hot" "$work/defined" | wc -l)
hot_listed=$(wc -l <"$work/hot")
val() { grep "^$1 " "$2" | cut -d' ' -f2; }

printf '%-44s %12s  %s\n' measure value target
printf '%-44s %12s  %s\n' "wake-ups in ${IDLE} s, no watcher" "$none" "0"
printf '%-44s %12s  %s\n' "  preemptions (not wake-ups), no watcher" "$none_pre" "-"
printf '%-44s %12s  %s\n' "wake-ups in ${IDLE} s, item shown, none due" "$shown" "ring steps: $(( IDLE / 20 ))"
printf '%-44s %12s  %s\n' "  preemptions (not wake-ups), item shown" "$shown_pre" "-"
printf '%-44s %12s  %s\n' "NewIcon signals over the watcher's run" "$(val watcher.new_icon "$work/watcher.txt")" "ring steps"
printf '%-44s %12s  %s\n' "registrations" "$(val watcher.registrations "$work/watcher.txt")" "1"
printf '%-44s %12s  %s\n' "VmRSS without the item (kB)" "$rss_none" "-"
printf '%-44s %12s  %s\n' "VmRSS with the item (kB)" "$rss_kb" "<= 10240"
printf '%-44s %12s  %s\n' "hot functions found in icared" "$hot_found/$hot_listed" "all"
for s in 16 22 24 32 48; do
  printf '%-44s %12s  %s\n' "ring render ${s} px (p50, µs)" "$(val "render.${s}_p50_us" "$work/render.txt")" "<= 1000"
done
