#!/bin/sh
# Installs the system packages iCare needs to build, run and test, on a
# fresh Debian 12 / Ubuntu machine. The one place that knows them; README,
# .ci/run and the Makefile's users call it. Idempotent and quiet: apt runs
# only when a package is missing. Uses sudo when not root.
set -eu

packages="
  pkg-config libdbus-1-dev libsystemd-dev libstdc++-12-dev
  dbus-daemon dbus-bin
  systemd
  libglib2.0-bin
  dconf-cli dconf-service dconf-gsettings-backend gsettings-desktop-schemas
  python3 python3-dbusmock
  tmux make man-db
  xvfb dunst suckless-tools
  xfce4-notifyd xfconf notification-daemon
  at-spi2-core gir1.2-atspi-2.0 python3-gi xdotool imagemagick
  librsvg2-common fonts-dejavu-core
  gettext locales
  libwayland-dev libwayland-bin wayland-protocols plasma-wayland-protocols
  sway wtype
  waybar grim
  xfce4-panel
  mako-notifier sway-notification-center
  dpkg-dev debhelper fakeroot lintian
  zsh fish
  libpipewire-0.3-dev pipewire pipewire-bin wireplumber
  gstreamer1.0-tools gstreamer1.0-pipewire
  valgrind binutils
"
# What each is for:
#   pkg-config libdbus-1-dev libsystemd-dev   build (module maps, pkg-config)
#   libstdc++-12-dev                          build: the release icared links libstdc++.a
#                                             (Sources/icared/link)
#   dbus-daemon dbus-bin                      private test buses, dbus-send
#   systemd                                   busctl, systemd-analyze (unit tests)
#   libglib2.0-bin                            gdbus, gsettings (tests, examples)
#   dconf-* gsettings-desktop-schemas         GNOME do-not-disturb tests
#   python3-dbusmock                          fake notification server
#   tmux                                      `icarectl watch` in a real terminal
#   make man-db                               install step, man page checks
#   xvfb dunst                                a real notification daemon in tests
#   suckless-tools                            dmenu, dunst's menu (RealServerTests)
#   xfce4-notifyd xfconf notification-daemon  the real XFCE and GNOME-fallback servers
#                                             (RealServerTests; xfconfd beside xfce4-notifyd)
#   at-spi2-core gir1.2-atspi-2.0 python3-gi  reading bubbles, words and buttons from the
#                                             accessibility tree (RealServerTests)
#   xdotool imagemagick                       a real pointer's clicks; screenshots (scripts/screenshots)
#   librsvg2-common fonts-dejavu-core         the SVG icon and the text drawn by the servers
#   gettext locales                           msgfmt for the catalogs (install, run,
#                                             tests), xgettext; the locales below
#   libwayland-dev                            build (the Wayland idle watch's module map)
#   libwayland-bin wayland-protocols plasma-wayland-protocols
#                                             wayland-scanner and the idle protocols' XML
#                                             (scripts/wayland-protocols, its --check test)
#   sway wtype                                a real headless compositor and a keyboard
#                                             for the Wayland idle tests
#   waybar grim                               a real StatusNotifierItem host (waybar's tray)
#                                             on that sway, and screenshots of its bar; its
#                                             menu clicked with a virtual pointer (a python3
#                                             Wayland client in Tests/TestSupport)
#   xfce4-panel                               a real X11 StatusNotifierItem host (its systray
#                                             plugin) under Xvfb: the ring, its menu, clicks
#   mako-notifier sway-notification-center    the real Wayland notification servers, under
#                                             headless sway (RealServerTests; makoctl, swaync-client)
#   dpkg-dev debhelper fakeroot lintian       `make deb` (dpkg-buildpackage, dh) and
#                                             scripts/test-deb (lintian, apt install)
#   zsh fish                                  the completion scripts, run in the real shells
#   libpipewire-0.3-dev                       build (the PipeWire busy source's module map)
#   pipewire pipewire-bin wireplumber         a real PipeWire daemon and session manager, headless,
#                                             and pw-record/pw-cli for the busy tests (PipeWireBusyTests)
#   gstreamer1.0-tools gstreamer1.0-pipewire  an app watching a video source (gst-launch-1.0 pipewiresrc):
#                                             a camera or a screen cast in use (PipeWireBusyTests)
#   valgrind binutils                         scripts/hot-functions: callgrind records what icared
#                                             runs; objcopy, nm
#
# And Swift 6, the one thing Debian 12's apt cannot give: see the end.
#
# Sounds (issue 25), a block of its own until the lead merges it into the run and test lists:
#   libcanberra-dev                           build: the CCanberra module map's header
#   libcanberra0 libcanberra-pulse            run: icared's sound process opens libcanberra (dlopen)
#   sound-theme-freedesktop                   and plays through its Pulse backend the theme's bell
#                                             and complete
#   pipewire-pulse pulseaudio-utils           test: PipeWire's Pulse server, headless, and parecord
#                                             recording the null speakers (SoundServiceTests, bench/sound.sh)
sound_run_packages="libcanberra-dev libcanberra0 libcanberra-pulse sound-theme-freedesktop"
sound_test_packages="pipewire-pulse pulseaudio-utils"
packages="$packages $sound_run_packages $sound_test_packages"

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

# Swift 6. Where the distribution packages it (Debian 13, Ubuntu 24.10 and
# later: `swiftlang`), apt installs it; elsewhere this stops with the one
# instruction to follow, and runs again cleanly afterwards.
swift_major() { swift --version 2>/dev/null | sed -n 's/.*Swift version \([0-9]*\)\..*/\1/p' | head -n1; }
if [ "$(swift_major)" = "" ] || [ "$(swift_major)" -lt 6 ]; then
  candidate=$(apt-cache policy swiftlang 2>/dev/null | sed -n 's/^ *Candidate: *//p')
  if [ -n "$candidate" ] && [ "$candidate" != "(none)" ]; then
    echo "deps.sh: installing Swift (swiftlang $candidate)" >&2
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get install -y -qq --no-install-recommends swiftlang >/dev/null
  fi
fi
if [ "$(swift_major)" = "" ] || [ "$(swift_major)" -lt 6 ]; then
  # The toolchain iCare is built and tested with, for this system.
  version=6.3.1
  . /etc/os-release
  case "$(uname -m)" in aarch64) arch="-aarch64" ;; *) arch="" ;; esac
  case "${ID:-}${VERSION_ID:-}" in
    debian12) dir=debian12 file=debian12 ;;
    ubuntu22.04) dir=ubuntu2204 file=ubuntu22.04 ;;
    ubuntu24.04) dir=ubuntu2404 file=ubuntu24.04 ;;
    *) dir="" ;;
  esac
  if [ -n "$dir" ]; then
    tarball="https://download.swift.org/swift-$version-release/$dir$arch/swift-$version-RELEASE/swift-$version-RELEASE-$file$arch.tar.gz"
    echo "deps.sh: Swift 6 is needed to build iCare, and ${PRETTY_NAME:-this system} has no package for it. Install it with:" >&2
    echo "    curl -fL $tarball | sudo tar -xz -C /opt && export PATH=/opt/swift-$version-RELEASE-$file$arch/usr/bin:\$PATH" >&2
  else
    echo "deps.sh: Swift 6 is needed to build iCare, and ${PRETTY_NAME:-this system} has no package for it. Get the toolchain for your system from https://www.swift.org/install/linux/, unpack it, and put its usr/bin first on PATH." >&2
  fi
  echo "deps.sh: (the Debian package needs no Swift at all: see README, Install)" >&2
  exit 1
fi
