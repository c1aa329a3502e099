#!/bin/sh
# Installs the system packages iCare needs to build, run and test, on a
# fresh Debian 12 / Ubuntu machine. The one place that knows them; README,
# .ci/run and the Makefile's users call it. Idempotent and quiet: apt runs
# only when a package is missing. Uses sudo when not root.
set -eu

packages="
  pkg-config libdbus-1-dev libsystemd-dev
  dbus-daemon dbus-bin
  systemd
  libglib2.0-bin
  dconf-cli dconf-service dconf-gsettings-backend gsettings-desktop-schemas
  python3 python3-dbusmock
  tmux make man-db
  xvfb dunst
  xfce4-notifyd xfconf notification-daemon
  at-spi2-core gir1.2-atspi-2.0 python3-gi xdotool imagemagick
  librsvg2-common fonts-dejavu-core
  gettext locales
"
# What each is for:
#   pkg-config libdbus-1-dev libsystemd-dev   build (module maps, pkg-config)
#   dbus-daemon dbus-bin                      private test buses, dbus-send
#   systemd                                   busctl, systemd-analyze (unit tests)
#   libglib2.0-bin                            gdbus, gsettings (tests, examples)
#   dconf-* gsettings-desktop-schemas         GNOME do-not-disturb tests
#   python3-dbusmock                          fake notification server
#   tmux                                      `icarectl watch` in a real terminal
#   make man-db                               install step, man page checks
#   xvfb dunst                                a real notification daemon in tests
#   xfce4-notifyd xfconf notification-daemon  the real XFCE and GNOME-fallback servers
#                                             (RealServerTests; xfconfd beside xfce4-notifyd)
#   at-spi2-core gir1.2-atspi-2.0 python3-gi  reading bubbles, words and buttons from the
#                                             accessibility tree (RealServerTests)
#   xdotool imagemagick                       a real pointer's clicks; screenshots (scripts/screenshots)
#   librsvg2-common fonts-dejavu-core         the SVG icon and the text drawn by the servers
#   gettext locales                           msgfmt for the catalogs (install, run,
#                                             tests), xgettext; the locales below
#
# Locales the tests run icared and icarectl in (Dutch texts, a 12-hour clock).
test_locales="nl_NL en_US"

missing=""
for p in $packages; do
  status=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
  [ "$status" = installed ] || missing="$missing $p"
done

if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi

if [ -n "$missing" ]; then
  echo "deps.sh: installing$missing" >&2
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  # shellcheck disable=SC2086
  $sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi

for l in $test_locales; do
  if ! locale -a 2>/dev/null | grep -qix "$l.utf-\{0,1\}8"; then
    echo "deps.sh: generating the locale $l.UTF-8" >&2
    $sudo localedef -i "$l" -f UTF-8 "$l.UTF-8"
  fi
done
