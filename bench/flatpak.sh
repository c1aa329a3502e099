#!/usr/bin/env bash
# iCare in the Flatpak sandbox (docs/flatpak.md), as a small table; read, not
# asserted. Needs root (scripts/flatpak).
#   bench/flatpak.sh                 the test runtime as cached (made when missing or stale), the
#                                    sandboxed icared idle for 60 s beside the same icared outside
#   FROM_NOTHING=1 bench/flatpak.sh  also makes the runtime again in a fresh folder (about 3 min)
#   IDLE=20 bench/flatpak.sh         a quicker look
# The sandboxed icared is started as a session starts it: by D-Bus activation
# through the installation's exported service file (flatpak run, bwrap,
# xdg-dbus-proxy). A wake-up is a voluntary context switch (/proc/PID/status).
set -euo pipefail
cd "$(dirname "$0")/.."
IDLE=${IDLE:-60}
scripts/deps.sh --test
swift build -c release --static-swift-stdlib --product icared >/dev/null
swift build -c release --static-swift-stdlib --product icarectl >/dev/null
bin=$(swift build -c release --static-swift-stdlib --show-bin-path)
work=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  sleep 0.5
  rm -rf "$work"
}
trap cleanup EXIT

seconds() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }
row() { printf '%-52s %12s\n' "$1" "$2"; }
field() { awk -v k="$2" '$1 == k":" {print $2}' "/proc/$1/status"; }

row "what" "figure"
if [ -n "${FROM_NOTHING:-}" ]; then
  fresh=$(mktemp -d /var/tmp/icare-flatpak-bench.XXXXXX)
  t0=$(date +%s.%N)
  ICARE_FLATPAK_CACHE=$fresh ICARE_BIN_DIR=$bin scripts/flatpak --test-bundles "$work/fresh" 2>/dev/null
  row "bundles, runtime from nothing (s)" "$(seconds "$t0")"
  rm -rf "$fresh"
fi
t0=$(date +%s.%N)
ICARE_BIN_DIR=$bin scripts/flatpak --test-bundles "$work/bundles" 2>/dev/null
row "bundles, runtime reused (s)" "$(seconds "$t0")"
cache=${ICARE_FLATPAK_CACHE:-/var/cache/icare/flatpak}
runtime=$(find "$cache" -maxdepth 2 -name .done -printf '%T@ %h\n' | sort -rn | head -n 1 | cut -d' ' -f2-)
row "runtime made in (s, when it was made)" "$(cat "$runtime/seconds")"
row "runtime repository (ostree)" "$(du -sh "$runtime/repo" | cut -f1)"
row "runtime bundle" "$(du -h "$work/bundles/org.icare.Test.Platform.flatpak" | cut -f1)"
row "app bundle" "$(du -h "$work/bundles/org.icare.Reminder.flatpak" | cut -f1)"

# A scratch installation, and a private bus that activates from its exports.
export FLATPAK_USER_DIR=$work/installation HOME=$work/home XDG_RUNTIME_DIR=$work/run
mkdir -p "$HOME" && mkdir -m 700 "$XDG_RUNTIME_DIR"
t0=$(date +%s.%N)
for b in org.icare.Test.Platform org.icare.Reminder; do
  flatpak --user install -y --noninteractive --bundle "$work/bundles/$b.flatpak" >/dev/null 2>&1
done
row "install both bundles (s)" "$(seconds "$t0")"
cat >"$work/bus.conf" <<CONF
<busconfig><type>session</type><listen>unix:path=$work/bus</listen><auth>EXTERNAL</auth>
<policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy>
<servicedir>$FLATPAK_USER_DIR/exports/share/dbus-1/services</servicedir></busconfig>
CONF
dbus-daemon --config-file="$work/bus.conf" --nofork --nopidfile --print-address=1 >"$work/addr" 2>"$work/bus.log" &
pids+=($!)
for _ in $(seq 200); do [ -s "$work/addr" ] && break; sleep 0.01; done
export DBUS_SESSION_BUS_ADDRESS=$(head -n 1 "$work/addr")
get_state() { busctl --user get-property org.icare.Reminder /org/icare/Reminder org.icare.Reminder State >/dev/null; }
t0=$(date +%s.%N)
get_state
row "first call, icared activated in the sandbox (s)" "$(seconds "$t0")"
proxy=$(busctl --user call org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus \
  GetConnectionUnixProcessID s org.icare.Reminder | awk '{print $2}')
info=$(find "$XDG_RUNTIME_DIR/.flatpak" -name bwrapinfo.json | head -n 1)
child=$(awk -F': *' '/child-pid/ { gsub(/[, ]/, "", $2); print $2 }' "$info")
icared=$(cat "/proc/$child/task/$child/children" | tr ' ' '\n' | while read -r p; do
  [ -n "$p" ] && [ "$(cat "/proc/$p/comm")" = icared ] && echo "$p"; done | head -n 1)
[ -f "/proc/$icared/root/.flatpak-info" ] || { echo "bench: icared ($icared) is not sandboxed" >&2; exit 1; }
pids+=("$icared")
sleep 2
v0=$(field "$icared" voluntary_ctxt_switches); p0=$(field "$proxy" voluntary_ctxt_switches)
sleep "$IDLE"
row "sandboxed icared: wake-ups in ${IDLE} s idle" "$(( $(field "$icared" voluntary_ctxt_switches) - v0 ))"
row "xdg-dbus-proxy: wake-ups in ${IDLE} s idle" "$(( $(field "$proxy" voluntary_ctxt_switches) - p0 ))"
row "sandboxed icared: VmRSS (kB)" "$(field "$icared" VmRSS)"
row "its xdg-dbus-proxy: VmRSS (kB)" "$(field "$proxy" VmRSS)"
bwraps=0
for p in $(pgrep -x bwrap); do
  case "$(tr '\0' ' ' <"/proc/$p/environ" 2>/dev/null)" in *"$work"*) bwraps=$((bwraps + $(field "$p" VmRSS))) ;; esac
done
row "its bwrap processes: VmRSS, summed (kB)" "$bwraps"

# The same icared outside the sandbox, on its own bus, for comparison.
dbus-daemon --session --nofork --nopidfile --print-address=1 >"$work/addr2" 2>/dev/null &
pids+=($!)
for _ in $(seq 200); do [ -s "$work/addr2" ] && break; sleep 0.01; done
DBUS_SESSION_BUS_ADDRESS=$(head -n 1 "$work/addr2") XDG_CONFIG_HOME="$work/c2" XDG_STATE_HOME="$work/s2" \
  "$bin/icared" 2>/dev/null &
plain=$!
pids+=("$plain")
sleep 2
v0=$(field "$plain" voluntary_ctxt_switches)
sleep "$IDLE"
row "icared outside: wake-ups in ${IDLE} s idle" "$(( $(field "$plain" voluntary_ctxt_switches) - v0 ))"
row "icared outside: VmRSS (kB)" "$(field "$plain" VmRSS)"
