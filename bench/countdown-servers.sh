#!/usr/bin/env bash
# The countdown's timing on each real notification server: icared (release)
# on a private bus with xfce4-notifyd, notification-daemon or dunst under its
# own Xvfb, or mako or swaync under a headless sway; a bus monitor (BecomeMonitor) stamps each countdown Notify as the
# bus delivers it, and the table gives the worst distance from a whole second
# before the break's end. icared waits for each Notify's reply before the next,
# so a slow server would show here. Not a test: figures are read, not asserted.
#   bench/countdown-servers.sh           30 s breaks
#   BREAK=10 bench/countdown-servers.sh  a quicker look
set -euo pipefail
cd "$(dirname "$0")/.."
BREAK=${BREAK:-30}
scripts/deps.sh --test
swift build -c release --static-swift-stdlib >/dev/null
bin=$(swift build -c release --static-swift-stdlib --show-bin-path)
work=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill -9 -- "-$p" "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT

# A headless sway for mako and swaync (as `nobody` under root: sway refuses
# root); sets $wayland (its socket's path) and $as_sway.
start_sway() {
  local sway="$1/sway"
  mkdir -p "$sway/run" && chmod 755 "$work" "$1" "$sway" && chmod 700 "$sway/run"
  echo "output HEADLESS-1 resolution 640x480" >"$sway/config"
  as_sway=()
  if [ "$(id -u)" = 0 ]; then
    chown nobody "$sway/run"
    as_sway=(setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups --inh-caps=-all)
  fi
  XDG_RUNTIME_DIR="$sway/run" HOME="$sway" WLR_BACKENDS=headless WLR_LIBINPUT_NO_DEVICES=1 WLR_RENDERER=pixman \
    setsid "${as_sway[@]}" sway -c "$sway/config" >"$sway/log" 2>&1 &
  pids+=($!)
  wayland=
  for _ in $(seq 1500); do
    wayland=$(find "$sway/run" -maxdepth 1 -name 'wayland-*' ! -name '*.lock' 2>/dev/null | head -n1)
    [ -n "$wayland" ] && break
    sleep 0.01
  done
  [ -n "$wayland" ] || { echo "sway did not start: $(tail -n 5 "$sway/log")" >&2; exit 1; }
}

# One server: $1 name; prints "worst_ms updates p50_ms".
measure() {
  local name=$1 dir="$work/$1"
  # This runs in a subshell (the loop reads its output): it ends what it started, failing or not.
  trap 'for p in "${pids[@]}"; do kill -9 -- "-$p" "$p" 2>/dev/null || true; done' EXIT
  mkdir -p "$dir/runtime" "$dir/config/icare" "$dir/state"
  chmod 700 "$dir/runtime"
  printf 'BreakDuration = %s\nSound = false\n' "$BREAK" >"$dir/config/icare/config"
  # A session bus that any user may join: the Wayland servers run as sway's user.
  cat >"$dir/bus.conf" <<EOF
<busconfig><type>session</type><listen>unix:path=$dir/bus</listen><auth>EXTERNAL</auth>
<policy context="default"><allow user="*"/><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy></busconfig>
EOF
  setsid dbus-daemon --config-file="$dir/bus.conf" --nofork --nopidfile >/dev/null 2>&1 &
  pids+=($!)
  export DBUS_SESSION_BUS_ADDRESS="unix:path=$dir/bus"
  export XDG_RUNTIME_DIR="$dir/runtime" XDG_CONFIG_HOME="$dir/config" XDG_STATE_HOME="$dir/state"
  case $name in
    mako|swaync) start_sway "$dir" ;;
    *)
      setsid Xvfb -displayfd 3 -nolisten tcp -screen 0 800x600x24 3>"$dir/display" 2>/dev/null &
      pids+=($!)
      for _ in $(seq 500); do [ -s "$dir/display" ] && break; sleep 0.01; done
      export DISPLAY=":$(head -n1 "$dir/display")" ;;
  esac
  for _ in $(seq 500); do [ -S "$dir/bus" ] && break; sleep 0.01; done
  case $name in
    xfce4-notifyd)
      setsid /usr/lib/x86_64-linux-gnu/xfce4/xfconf/xfconfd >/dev/null 2>&1 & pids+=($!)
      setsid /usr/lib/x86_64-linux-gnu/xfce4/notifyd/xfce4-notifyd >/dev/null 2>&1 & pids+=($!) ;;
    notification-daemon)
      setsid /usr/lib/notification-daemon/notification-daemon --replace >/dev/null 2>&1 & pids+=($!) ;;
    dunst)
      setsid dunst >/dev/null 2>&1 & pids+=($!) ;;
    mako|swaync)
      XDG_RUNTIME_DIR="$dir/sway/run" HOME="$dir/sway" XDG_CONFIG_HOME="$dir/sway" WAYLAND_DISPLAY="$wayland" \
        setsid "${as_sway[@]}" "$name" >/dev/null 2>&1 & pids+=($!) ;;
  esac
  for _ in $(seq 500); do
    busctl --user call org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus NameHasOwner s org.freedesktop.Notifications 2>/dev/null | grep -q true && break
    sleep 0.01
  done
  setsid "$bin/icared" --log-stderr 2>>"$work/icared.log" & pids+=($!)
  for _ in $(seq 500); do
    busctl --user call org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus NameHasOwner s org.icare.Reminder 2>/dev/null | grep -q true && break
    sleep 0.01
  done
  sleep 0.5
  /usr/bin/python3 - "$BREAK" <<'PY'
import sys, time, subprocess
import dbus, dbus.mainloop.glib
from gi.repository import GLib
seconds = int(sys.argv[1])
dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
bus = dbus.SessionBus()
arrivals, ends = [], []
def seen(conn, msg):
    args = msg.get_args_list()
    if msg.get_member() == 'Notify' and len(args) > 3 and str(args[0]) == 'iCare' and str(args[3]).startswith('Look far away'):
        arrivals.append(time.time())
bus.get_object('org.freedesktop.DBus', '/org/freedesktop/DBus').BecomeMonitor(
    ["type='method_call',interface='org.freedesktop.Notifications',member='Notify'"], dbus.UInt32(0),
    dbus_interface='org.freedesktop.DBus.Monitoring')
bus.add_message_filter(seen)
def call(*args):
    return subprocess.run(['busctl', '--user'] + list(args), capture_output=True, text=True, check=True).stdout
def start():
    call('call', 'org.icare.Reminder', '/org/icare/Reminder', 'org.icare.Reminder', 'StartBreak')
    ends.append(int(call('get-property', 'org.icare.Reminder', '/org/icare/Reminder', 'org.icare.Reminder', 'BreakEnds').split()[1]) / 1e6)
    return False
loop = GLib.MainLoop()
GLib.timeout_add(200, start)
GLib.timeout_add(200 + (seconds + 2) * 1000, loop.quit)
loop.run()
# The first update answers StartBreak; the others should land on whole seconds before the end.
offsets = sorted(min((ends[0] - t) % 1, 1 - (ends[0] - t) % 1) for t in arrivals[1:]) if ends else []
if not offsets:
    print('- 0 -')
else:
    print('%.1f %d %.1f' % (offsets[-1] * 1000, len(offsets), offsets[len(offsets) // 2] * 1000))
PY
  for p in "${pids[@]}"; do kill -9 -- "-$p" "$p" 2>/dev/null || true; done
  pids=()
}

printf '%-44s %-22s %s\n' "countdown updates, ${BREAK} s break: server" "worst / p50 offset" "target"
for server in xfce4-notifyd notification-daemon dunst mako swaync; do
  read -r worst n p50 < <(measure "$server")
  printf '%-44s %-22s %s\n' "$server" "$worst / $p50 ms ($n updates)" "<= 20 ms"
done
