#!/usr/bin/env bash
# How long a reminder takes to reach the phone: from icared's BreakDue signal
# (dbus-monitor's stamp) to the fake phone's receipt of the kdeconnect.ping
# (its "_received" stamp, the same clock), on the host's KDE Connect 22.12 and
# in the Debian 13 (25.04.2) and testing (26.08.2) roots. Runs PhoneRootTests
# ROUNDS times and prints each KDE Connect's samples; not a test: the target
# (≤ 500 ms) is read off this table, never asserted (the suite only checks that each
# ping belongs to its reminder). Needs root.
#
# Then the phone as a remote (PhoneRemoteTests, the host's kdeconnectd 22.12,
# and GSConnectRemoteTests, the host's GSConnect): from PhoneReminders going
# on to iCare's commands in the list the phone received, and from the phone's
# kdeconnect.runcommand.request to icared's State (polled every 10 ms),
# against the target ≤ 300 ms.
#
# Then icared idle beside a real kdeconnectd 22.12 with a paired phone on the
# same bus (PhoneReminders on, the phone reachable, iCare's commands in its
# Run command list), IDLE seconds: its VmRSS and its wake-ups (context
# switches), against the targets ≤ 10 MB and 0.
#
#   bench/phones.sh                ROUNDS=3 IDLE=120 bench/phones.sh
#   ICARE_DEB=PATH bench/phones.sh the package the roots install (default: the newest build/deb/icare_*.deb;
#                                  `make deb` when there is none)
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
bench_root_package
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for _ in $(seq "${ROUNDS:-1}"); do
  "$tests" --testing-library swift-testing --filter PhoneRootTests >>"$out" 2>&1 || { grep -E '✘' "$out" >&2 || true; }
done
# "PhoneRootTests: KDE Connect 26.08.2, BreakDue → ping at the phone: 4 ms"
printf '%-14s %7s %8s %8s %8s  %s\n' "KDE Connect" samples "min ms" "mean ms" "max ms" all
grep -o 'KDE Connect [0-9.]*, BreakDue → ping at the phone: [0-9-]* ms' "$out" |
  awk '{ v = $3; sub(",", "", v); ms = $(NF - 1); n[v]++; s[v] += ms; if (!(v in lo) || ms < lo[v]) lo[v] = ms; if (ms > hi[v]) hi[v] = ms; all[v] = all[v] " " ms }
       END { for (v in n) printf "%-14s %7d %8d %8.0f %8d  %s\n", v, n[v], lo[v], s[v] / n[v], hi[v], all[v] }' | sort

# The phone as a remote, ROUNDS runs of the test FILTER, as a table headed LABEL (where LABEL holds
# "%s", the program's version the test printed: "GSConnect 54,"): the test prints "…request to State:
# snooze 21 ms, skip 17 ms, start 19 ms" and "…commands 13 ms after PhoneReminders went on".
remote_table() {
  : >"$out"
  for _ in $(seq "${ROUNDS:-1}"); do
    "$tests" --testing-library swift-testing --filter "$1" >>"$out" 2>&1 || { grep -E '✘' "$out" >&2 || true; }
  done
  local version
  version=$(grep -o -m1 'GSConnect [0-9?]*,' "$out" | tr -d , || true)
  echo
  # shellcheck disable=SC2059  # the label is the format
  printf '%-34s %7s %8s %8s %8s\n' "$(printf "$2" "$version")" samples "min ms" "mean ms" "max ms"
  { grep -o 'commands [0-9]* ms after PhoneReminders' "$out" | awk '{ print "list after PhoneReminders on", $2 }'
    grep -o 'request to State: .*' "$out" | grep -o '[a-z]* [0-9]* ms' | awk '{ print "request → State,", $1, $2 }'
  } | awk '{ ms = $NF; $NF = ""; k = $0; n[k]++; s[k] += ms; if (!(k in lo) || ms < lo[k]) lo[k] = ms; if (ms > hi[k]) hi[k] = ms }
          END { for (k in n) printf "%-34s %7d %8d %8.0f %8d\n", k, n[k], lo[k], s[k] / n[k], hi[k] }' | sort
}
remote_table 'IntegrationTests.PhoneRemoteTests/thePhoneOffers' "phone remote (KDE Connect 22.12)"
remote_table 'IntegrationTests.GSConnectRemoteTests/thePhoneGets' "phone remote (%s)"

# Idle with KDE Connect on the bus: the release icared, kdeconnectd and the fake
# phone (both in a network namespace with only lo: kdeconnectd broadcasts).
bench_setup
bench_session_bus
idle=${IDLE:-60}
kde=/usr/lib/x86_64-linux-gnu/libexec/kdeconnectd
[ -x "$kde" ] || { echo "bench: kdeconnectd is missing (scripts/deps.sh --test)" >&2; exit 1; }
setpriv --pdeathsig KILL -- unshare --net sh -c 'ip link set lo up; exec sleep infinity' &
ns=$!; pids+=("$ns"); sleep 0.2
enter=(nsenter --net="/proc/$ns/ns/net" setpriv --pdeathsig KILL --)
/usr/bin/python3 -m dbusmock --session -t notification_daemon >/dev/null 2>&1 &
pids+=($!)
mkdir -p "$work/kde" "$work/phone"
HOME="$work/kde" XDG_CONFIG_HOME="$work/kde/config" XDG_DATA_HOME="$work/kde/data" QT_QPA_PLATFORM=offscreen \
  "${enter[@]}" "$kde" >"$work/kde.log" 2>&1 &
pids+=($!)
for _ in $(seq 200); do owned org.kde.kdeconnect && break; sleep 0.05; done
id=$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')
mkfifo "$work/phone.in"
"${enter[@]}" /usr/bin/python3 Tests/TestSupport/fake-phone.py "$id" --state "$work/phone" --connect \
  <"$work/phone.in" >"$work/phone.out" 2>&1 &
pids+=($!)
exec 7>"$work/phone.in"
device=/modules/kdeconnect/devices/$id
for _ in $(seq 300); do busctl --user get-property org.kde.kdeconnect "$device" org.kde.kdeconnect.device isReachable 2>/dev/null | grep -q true && break; sleep 0.05; done
echo pair >&7
# 22.12 says hasPairingRequests, later ones isPairRequestedByPeer; then isTrusted or isPaired.
prop() { busctl --user get-property org.kde.kdeconnect "$device" org.kde.kdeconnect.device "$1" 2>/dev/null | grep -q true; }
for _ in $(seq 200); do prop hasPairingRequests || prop isPairRequestedByPeer && break; sleep 0.05; done
busctl --user call org.kde.kdeconnect "$device" org.kde.kdeconnect.device acceptPairing >/dev/null
for _ in $(seq 200); do prop isTrusted || prop isPaired && break; sleep 0.05; done
# One XDG_CONFIG_HOME for both, as on a desktop: icared writes its commands into the phone's list there.
mkdir -p "$work/kde/config/icare"; printf 'PhoneReminders = true\n' >"$work/kde/config/icare/config"
XDG_CONFIG_HOME="$work/kde/config" XDG_STATE_HOME="$work/idle/state" bench_start_icared
phones=""
for _ in $(seq 200); do
  phones=$(busctl --user get-property org.icare.Reminder /org/icare/Reminder org.icare.Reminder Phones)
  [ "$phones" != "as 0" ] && break; sleep 0.05
done
[ "$phones" != "as 0" ] || { echo "bench: icared lists no phone; kdeconnectd's log:" >&2; cat "$work/kde.log" >&2; exit 1; }
for _ in $(seq 100); do grep -q icare-start "$work/kde/config/kdeconnect/$id/kdeconnect_runcommand/config" 2>/dev/null && break; sleep 0.05; done
grep -q icare-start "$work/kde/config/kdeconnect/$id/kdeconnect_runcommand/config" || { echo "bench: iCare's commands are not in the phone's list" >&2; exit 1; }
# kdeconnectd closes its "pairing request" notification when the request's 30 s run out, and every
# client of the notification server (icared too) hears that NotificationClosed: the window starts after it.
sleep 32
ctx() { awk '/ctxt_switches/ {s+=$2} END {print s}' "/proc/$icared/status"; }
c0=$(ctx); sleep "$idle"; c1=$(ctx)
rss=$(awk '/VmRSS/ {print $2}' "/proc/$icared/status")
echo
printf '%-44s %10s %8s\n' "icared idle, KDE Connect 22.12, phone, remote" "VmRSS" "wake-ups"
printf '%-44s %7.1f MB %8d\n' "Phones: $phones, $idle s" "$(echo "$rss / 1024" | bc -l)" "$(( c1 - c0 ))"
