#!/usr/bin/env bash
# What iCare's GNOME Shell extension costs the Shell while iCare is idle
# (issue 30); read, not asserted.
#   bench/shell-extension.sh               GNOME Shell 50.5 (the Debian testing root), 180 s a window
#   SECONDS=60 RELEASE=trixie bench/...    shorter windows, GNOME Shell 48.7
# The real gnome-shell runs headless in a root of scripts/desktop-root with
# iCare's .deb installed (ICARE_DEB, else the newest build/deb/icare_*.deb),
# icared started and waiting (20 min to the next break, nothing due). The
# same Shell is measured twice, one window after the other: the extension
# enabled, then disabled (org.gnome.Shell.Extensions.DisableExtension, as
# gnome-extensions does). Per window, from /proc: the Shell's CPU time (utime
# + stime of the whole process, in clock ticks turned into ms) and its
# wake-ups: voluntary context switches of its main thread (where GJS and the
# extension run; it sleeps in poll and the kernel wakes it) and of all its
# threads. Involuntary switches are preemptions, not wake-ups: not counted.
# The windows go disabled, enabled, disabled again (after 40 s for the
# Shell to settle from its start), so that what the Shell does by itself in
# its first minutes, which would weigh on whichever window came first, shows
# as a difference between the two disabled windows.
# SECONDS is bash's own clock too: it is read once, at the start.
set -euo pipefail
window=$SECONDS
[ "$window" -gt 0 ] || window=180
cd "$(dirname "$0")/.."
repo=$PWD
release=${RELEASE:-forky}
deb=${ICARE_DEB:-$(ls -t build/deb/icare_*_amd64.deb 2>/dev/null | head -n 1)}
[ -n "$deb" ] && [ -f "$deb" ] || { echo "bench/shell-extension.sh: no package; run 'make deb' or set ICARE_DEB" >&2; exit 1; }
root_script=$repo/scripts/desktop-root
"$root_script" build "$release" >/dev/null
"$root_script" install-deb "$release" "$deb" >/dev/null

W=$(mktemp -d /tmp/icare-bench-shell-XXXXXX)
chmod 755 "$W"
init=""
cleanup() {
  [ -z "$init" ] || "$root_script" stop "$init" >/dev/null 2>&1 || true
  [ -n "${KEEP:-}" ] || rm -rf "$W"
}
trap cleanup EXIT
for d in home config data cache state services logs; do mkdir -p "$W/$d"; done
mkdir -m 700 "$W/runtime"
for n in org.gnome.Shell.Notifications org.gnome.Shell.Extensions org.a11y.Bus ca.desrt.dconf org.icare.Reminder; do
  ln -s "/usr/share/dbus-1/services/$n.service" "$W/services/$n.service"
done
env_vars=(HOME="$W/home" XDG_CONFIG_HOME="$W/config" XDG_DATA_HOME="$W/data" XDG_CACHE_HOME="$W/cache"
  XDG_STATE_HOME="$W/state" XDG_RUNTIME_DIR="$W/runtime" XDG_DATA_DIRS=/usr/local/share:/usr/share
  DBUS_SYSTEM_BUS_ADDRESS="unix:path=$W/system-bus" DBUS_SESSION_BUS_ADDRESS="unix:path=$W/session-bus"
  XDG_CURRENT_DESKTOP=GNOME XDG_SESSION_DESKTOP=gnome XDG_SESSION_TYPE=wayland GSETTINGS_BACKEND=dconf
  LANG=C.UTF-8 PATH=/usr/local/bin:/usr/bin:/bin)
for type in system session; do
  services=""
  [ "$type" = session ] && services="<servicedir>$W/services</servicedir>"
  cat >"$W/$type-bus.conf" <<CONF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN" "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>$type</type><listen>unix:path=$W/$type-bus</listen><auth>EXTERNAL</auth>
<policy context="default"><allow user="*"/><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy>
$services</busconfig>
CONF
done
chown -R 1000:1000 "$W"

init=$("$root_script" start "$release" "$W")
inside() { "$root_script" exec "$init" --user -- env -i "${env_vars[@]}" "$@"; }
background() { local log=$1; shift; setsid -f "$root_script" exec "$init" --user -- env -i "${env_vars[@]}" "$@" >"$W/logs/$log" 2>&1 </dev/null; }
call() { inside gdbus call --session "$@" >/dev/null; }
background system-bus.log dbus-daemon --config-file="$W/system-bus.conf" --nofork --nopidfile
background session-bus.log dbus-daemon --config-file="$W/session-bus.conf" --nofork --nopidfile
for _ in $(seq 100); do [ -S "$W/session-bus" ] && [ -S "$W/system-bus" ] && break; sleep 0.1; done
inside dconf write /org/gnome/desktop/interface/enable-hot-corners false
inside dconf write /org/gnome/shell/enabled-extensions "['ring@icare.org']"
inside dconf write /org/gnome/desktop/session/idle-delay 'uint32 0'
inside dconf write /org/gnome/desktop/screensaver/lock-enabled false
mkdir -p "$W/config/icare" "$W/data/gnome-shell"
printf 'Interval = 20m\nBreakDuration = 20s\n' >"$W/config/icare/config"
touch "$W/data/gnome-shell/lock-warning-shown"
chown -R 1000:1000 "$W/config" "$W/data"

background gnome-shell.log gnome-shell --headless --wayland --no-x11 --virtual-monitor 1280x800
for _ in $(seq 240); do grep -q "GNOME Shell started" "$W/logs/gnome-shell.log" 2>/dev/null && break; sleep 0.5; done
grep -q "GNOME Shell started" "$W/logs/gnome-shell.log" || { tail -n 20 "$W/logs/gnome-shell.log" >&2; exit 1; }
# The Shell's process as the host numbers it: the gnome-shell in the root's PID namespace.
ns=$(readlink "/proc/$init/ns/pid")
shell=""
for p in /proc/[0-9]*; do
  [ "$(cat "$p/comm" 2>/dev/null)" = gnome-shell ] && [ "$(readlink "$p/ns/pid" 2>/dev/null)" = "$ns" ] && { shell=${p#/proc/}; break; }
done
[ -n "$shell" ] || { echo "bench/shell-extension.sh: no gnome-shell in the root" >&2; exit 1; }
call --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus --method org.freedesktop.DBus.StartServiceByName org.icare.Reminder 0
state=$(inside gnome-extensions info ring@icare.org | sed -n 's/^ *State: //p')
[ "$state" = ACTIVE ] || { echo "bench/shell-extension.sh: the extension is '$state', not ACTIVE" >&2; exit 1; }
sleep 40  # the Shell settles after its start

tick=$(getconf CLK_TCK)
cpu() { awk '{ print $14 + $15 }' "/proc/$shell/stat"; }
switches() { awk '/^voluntary_ctxt_switches/ { print $2 }' "$1"; }
all_switches() { local n=0 t; for t in /proc/"$shell"/task/*/status; do n=$((n + $(switches "$t"))); done; echo "$n"; }
measure() {  # prints: cpu-ms main-wakeups all-wakeups
  local c0 m0 a0
  c0=$(cpu); m0=$(switches "/proc/$shell/task/$shell/status"); a0=$(all_switches)
  sleep "$window"
  echo "$(( ($(cpu) - c0) * 1000 / tick )) $(( $(switches "/proc/$shell/task/$shell/status") - m0 )) $(( $(all_switches) - a0 ))"
}
extension() { call --dest org.gnome.Shell --object-path /org/gnome/Shell --method "org.gnome.Shell.Extensions.$1" ring@icare.org; sleep 5; }
extension DisableExtension
read -r off_cpu off_main off_all < <(measure)
extension EnableExtension
read -r on_cpu on_main on_all < <(measure)
extension DisableExtension
read -r off2_cpu off2_main off2_all < <(measure)
icared_state=$(inside gdbus call --session --dest org.icare.Reminder --object-path /org/icare/Reminder \
  --method org.freedesktop.DBus.Properties.Get org.icare.Reminder State)

printf 'GNOME Shell in %s, %s s a window, icared %s, %s\n' "$release" "$window" "$icared_state" "$(basename "$deb")"
printf '%-22s %12s %14s %16s %24s\n' "" "CPU (ms)" "main wake-ups" "all wake-ups" "the same per minute"
row() { printf '%-22s %12s %14s %16s %24s\n' "$1" "$2" "$3" "$4" "$(($2 * 60 / window)) / $(($3 * 60 / window)) / $(($4 * 60 / window))"; }
row "extension disabled" "$off_cpu" "$off_main" "$off_all"
row "extension enabled" "$on_cpu" "$on_main" "$on_all"
row "extension disabled" "$off2_cpu" "$off2_main" "$off2_all"
