#!/usr/bin/env bash
# The app's figures (issue 26), as a small table; read, not asserted.
#   bench/app.sh            5 launches, then a 60 s idle window
#   IDLE=20 RUNS=3 bench/app.sh
# Everything private: a dbus-daemon, Xvfb (-displayfd), icared and the app
# from the release build (as `make install` ships them), in a temporary HOME.
# Launch to first frame: from just before exec to the first frame GTK paints
# (the app reports its frame clock's first after-paint when ICARE_BENCH is
# set), and to the first frame that shows the service's status (after its
# GetAll answer), with the way there in steps (exec to main(), GApplication's
# start-up to its activate, the window built and presented, GTK's first
# layout and paint). Wake-ups: voluntary context switches of all the app's
# threads while it is open and nothing changes; the ring steps every
# Interval/60 (20 s at 20 min), and every third step is also a new minute
# of the countdown drawn in it (one redraw for both). Each step costs GTK's
# frame besides the app's one timer (docs/measured.md, "The app": about 2.7 wake-ups
# with cairo, 5 with GL on llvmpipe; it was about 10 when a step relaid out
# the window).
set -euo pipefail
cd "$(dirname "$0")/.."
IDLE=${IDLE:-60}
RUNS=${RUNS:-5}
. bench/lib.sh
bench_setup

bench_session_bus
Xvfb -displayfd 3 -nolisten tcp -screen 0 1024x900x24 3>"$work/display" 2>/dev/null &
pids+=($!)
for _ in $(seq 200); do [ -s "$work/display" ] && break; sleep 0.01; done
export DISPLAY=":$(head -n1 "$work/display")" GDK_BACKEND=x11 GSETTINGS_BACKEND=memory NO_AT_BRIDGE=1 GTK_A11Y=none
export HOME="$work" XDG_CONFIG_HOME="$work/config" XDG_STATE_HOME="$work/state" XDG_RUNTIME_DIR="$work/runtime"
mkdir -p "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
# iCare has run here before: the app opens on its home view, not the welcome.
mkdir -p "$XDG_STATE_HOME/icare" && : >"$XDG_STATE_HOME/icare/welcome-seen"
unset WAYLAND_DISPLAY
bench_start_icared

first=() status=() mains=() activates=() presents=()
for run in $(seq "$RUNS"); do
  t0=$(date +%s%6N)
  ICARE_BENCH=1 "$bin/icare" 2>"$work/app.$run.log" &
  app=$!
  for _ in $(seq 1000); do grep -q '^status-frame ' "$work/app.$run.log" && break; sleep 0.01; done
  first+=($(( $(awk '/^first-frame / {print $2}' "$work/app.$run.log") - t0 )))
  status+=($(( $(awk '/^status-frame / {print $2}' "$work/app.$run.log") - t0 )))
  mains+=($(( $(awk '/^main / {print $2}' "$work/app.$run.log") - t0 )))
  activates+=($(( $(awk '/^activate / {print $2}' "$work/app.$run.log") - t0 )))
  presents+=($(( $(awk '/^presented / {print $2}' "$work/app.$run.log") - t0 )))
  if [ "$run" -lt "$RUNS" ]; then kill "$app"; wait "$app" 2>/dev/null || true; fi
done
pids+=($app)
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

sleep 3
rss=$(awk '/VmRSS/ {print $2}' "/proc/$app/status")
# Per thread: "tid name switches"; threads that come and go during the window count from 0.
switches() { for t in /proc/"$app"/task/*; do echo "${t##*/} $(tr ' ' _ <"$t/comm") $(awk '$1 == "voluntary_ctxt_switches:" {print $2}' "$t/status" 2>/dev/null)"; done; }
threads=$(ls /proc/"$app"/task | wc -l)
switches >"$work/before"; sleep "$IDLE"; switches >"$work/after"
awk 'NR == FNR {b[$1] = $3; next} {print $1, $2, $3 - b[$1]}' "$work/before" "$work/after" >"$work/delta"
wakeups=$(awk '{s += $3} END {print s}' "$work/delta")
main_wakeups=$(awk -v pid="$app" '$1 == pid {print $3}' "$work/delta")

# A change made with icarectl, to the window's next frame (5 times: pause, resume).
changes=()
for i in $(seq 5); do
  for cmd in "pause 30m" "resume"; do
    before=$(grep -c '^change-frame ' "$work/app.$RUNS.log" || true)
    t0=$(date +%s%6N)
    "$bin/icarectl" $cmd >/dev/null
    for _ in $(seq 500); do [ "$(grep -c '^change-frame ' "$work/app.$RUNS.log")" -gt "$before" ] && break; sleep 0.005; done
    changes+=($(( $(grep '^change-frame ' "$work/app.$RUNS.log" | sed -n "$(( before + 1 ))p" | cut -d' ' -f2) - t0 )))
  done
done

printf '%-48s %12s  %s\n' measure value target
printf '%-48s %12s  %s\n' "launch to first frame (median of $RUNS, ms)" "$(( $(median "${first[@]}") / 1000 ))" "<= 300"
printf '%-48s %12s  %s\n' "  of which: exec to main() (ms)" "$(( $(median "${mains[@]}") / 1000 ))" "-"
printf '%-48s %12s  %s\n' "  main() to GApplication's activate (ms)" "$(( ($(median "${activates[@]}") - $(median "${mains[@]}")) / 1000 ))" "-"
printf '%-48s %12s  %s\n' "  activate to the window presented (ms)" "$(( ($(median "${presents[@]}") - $(median "${activates[@]}")) / 1000 ))" "-"
printf '%-48s %12s  %s\n' "  presented to the first frame (ms)" "$(( ($(median "${first[@]}") - $(median "${presents[@]}")) / 1000 ))" "-"
printf '%-48s %12s  %s\n' "launch to the status shown (median, ms)" "$(( $(median "${status[@]}") / 1000 ))" "-"
printf '%-48s %12s  %s\n' "icarectl change to the window's frame (median, ms)" "$(( $(median "${changes[@]}") / 1000 ))" "<= 1000"
printf '%-48s %12s  %s\n' "  the slowest of ${#changes[@]} (ms)" "$(( $(printf '%s\n' "${changes[@]}" | sort -n | tail -n1) / 1000 ))" "<= 1000"
printf '%-48s %12s  %s\n' "VmRSS while open (kB)" "$rss" "-"
printf '%-48s %12s  %s\n' "threads" "$threads" "-"
printf '%-48s %12s  %s\n' "wake-ups in ${IDLE} s, open and idle (all threads)" "$wakeups" "-"
printf '%-48s %12s  %s\n' "  of the main thread" "$main_wakeups" "ring steps: $(( IDLE / 20 )) (each one frame)"
awk -v pid="$app" '$3 > 0 && $1 != pid {printf "  %-46s %12s  %s\n", "of " $2, $3, "-"}' "$work/delta"
printf "%-48s %12s  %s\n" "renderer (GSK_RENDERER)" "${GSK_RENDERER:-default}" "-"
