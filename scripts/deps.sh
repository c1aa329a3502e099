#!/bin/sh
# Installs the system packages iCare needs on a fresh Debian 12 / Ubuntu
# machine. The one place that knows them, in two lists: what building and
# running need (always), and what only the tests need (with --test). README,
# scripts/run and scripts/demo call it plain; scripts/test (and so .ci/run),
# scripts/screenshots, scripts/hot-functions and bench/ call it with --test.
# Idempotent and quiet: apt runs only when a package is missing. Uses sudo
# when not root.
#
#   scripts/deps.sh                 build and run packages, and Swift 6
#   scripts/deps.sh --deb           the same, and the Debian packaging tools (`make deb` runs this)
#   scripts/deps.sh --test          the same as --deb, the test packages and the test locales
#   scripts/deps.sh --list [--deb|--test] prints the packages it would install, one a line; installs nothing
set -eu

with_tests=""
with_deb=""
list=""
for arg in "$@"; do
  case "$arg" in
    --test) with_tests=yes; with_deb=yes ;;
    --deb) with_deb=yes ;;
    --list) list=yes ;;
    *) echo "deps.sh: unknown argument '$arg' (takes --deb, --test, --list)" >&2; exit 64 ;;
  esac
done

# Building and running iCare (scripts/run, make, make install).
build_run_packages="
  pkg-config libdbus-1-dev libsystemd-dev g++
  libwayland-dev libpipewire-0.3-dev libpipewire-0.3-modules
  dbus-daemon dbus-bin
  gettext appstream make
  libgtk-4-dev libadwaita-1-dev
  libcanberra-dev libcanberra0 libcanberra-pulse sound-theme-freedesktop
"
# What each is for:
#   pkg-config libdbus-1-dev libsystemd-dev   build (module maps, pkg-config)
#   g++                                       build: the release icared links libstdc++.a
#                                             (Sources/icared/link) from the default compiler's
#                                             libstdc++-N-dev, which g++ brings (12 on Debian 12, 14
#                                             on Debian 13): Swift's clang looks in the newest GCC's
#                                             folder, so libstdc++-12-dev alone fails on Debian 13
#   libwayland-dev                            build (the Wayland idle watch's module map)
#   libpipewire-0.3-dev                       build (the PipeWire busy source's module map)
#   libpipewire-0.3-modules                   run: libpipewire's native protocol, without which icared
#                                             cannot see calls and screen shares (apt leaves it out
#                                             here: it is only a Recommends of PipeWire's daemon)
#   dbus-daemon dbus-bin                      scripts/run's private bus where none is reachable, dbus-send
#   gettext                                   msgfmt: the catalogs scripts/run and make install compile
#   appstream                                 appstreamcli: make install merges NEWS's releases into the
#                                             AppStream metainfo (scripts/po metainfo)
#   make                                      make, make install
#   libgtk-4-dev libadwaita-1-dev             build: the app, icare (the CAdwaita module map)
#   libcanberra-dev                           build: the CCanberra module map's header
#   libcanberra0 libcanberra-pulse            run: icared's sound process opens libcanberra (dlopen)
#   sound-theme-freedesktop                   and plays the theme's bell and complete through its
#                                             Pulse backend

# The Debian package (`make deb`, scripts/test-deb, scripts/release): debian/control's
# Build-Depends beyond the list above, and lintian, which make deb runs on what it built.
#   dpkg-dev debhelper fakeroot               dpkg-buildpackage, dh
#   build-essential                           what every Debian build may assume (dpkg-buildpackage
#                                             checks for it: a fresh Debian 13 with Swift lacked it)
#   lintian                                   make deb's check of the package
deb_packages="dpkg-dev debhelper fakeroot build-essential lintian"

# Only the tests (scripts/test, .ci/run), the screenshots and the
# profile: real desktops' programs, several of which (the notification
# servers, the panels) must not land on a person's machine by accident.
test_packages="
  systemd
  libglib2.0-bin
  dconf-cli dconf-service dconf-gsettings-backend gsettings-desktop-schemas
  python3 python3-dbusmock python3-venv zip python3-seccomp
  tmux man-db
  xvfb dunst suckless-tools
  xfce4-notifyd xfconf notification-daemon
  at-spi2-core gir1.2-atspi-2.0 python3-gi xdotool imagemagick
  librsvg2-common librsvg2-bin fonts-dejavu-core
  locales
  libwayland-bin wayland-protocols plasma-wayland-protocols
  sway wtype
  waybar grim
  xfce4-panel xfwm4
  mako-notifier sway-notification-center
  desktop-file-utils
  zsh fish
  pipewire pipewire-bin wireplumber
  gstreamer1.0-tools gstreamer1.0-pipewire
  valgrind binutils
  gdb
  strace
  plasma-workspace plasma-desktop kwin-x11 breeze
  kwin-wayland plasma-workspace-wayland kde-spectacle x11-utils
  gnome-shell gnome-shell-extension-appindicator gjs
  eslint
  pipewire-pulse pulseaudio-utils
  libfaketime
  debootstrap curl
  piuparts adequate
  flatpak xdg-desktop-portal xdg-desktop-portal-gtk xdg-desktop-portal-gnome
  apt-utils appstream-compose
  kdeconnect python3-pyqt5
  gnome-shell-extension-gsconnect
"
# What each is for:
#   systemd                                   busctl, systemd-analyze (unit tests)
#   libglib2.0-bin                            gdbus, gsettings (tests, examples)
#   dconf-* gsettings-desktop-schemas         GNOME do-not-disturb tests
#   python3-dbusmock                          fake notification server
#   python3-seccomp                           scripts/unit-sandbox: icared inside its unit's system call
#                                             filter in every test (docs/as-installed.md)
#   python3-venv zip                          the release's proof (scripts/test-release): check-jsonschema in
#                                             a venv, the extension's zip where gnome-extensions is absent
#   tmux                                      `icarectl watch` in a real terminal
#   man-db                                    man page checks
#   xvfb dunst                                a real notification daemon in tests
#   suckless-tools                            dmenu, dunst's menu (RealServerTests)
#   xfce4-notifyd xfconf notification-daemon  the real XFCE and GNOME-fallback servers
#                                             (RealServerTests; xfconfd beside xfce4-notifyd)
#   at-spi2-core gir1.2-atspi-2.0 python3-gi  reading bubbles, words and buttons from the
#                                             accessibility tree (RealServerTests)
#   xdotool imagemagick                       a real pointer's clicks; screenshots (scripts/screenshots)
#   librsvg2-common fonts-dejavu-core         the SVG icon and the text drawn by the servers
#   librsvg2-bin                              rsvg-convert: the installed SVG drawn to compare (GnomeAppIconInRootTests)
#   locales                                   the locales below (each language's texts, a 12-hour clock)
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
#   xfwm4                                     XFCE's window manager: a window in full screen
#                                             under dunst's and xfce4-notifyd's popups (X11FullScreenTests)
#   mako-notifier sway-notification-center    the real Wayland notification servers, under
#                                             headless sway (RealServerTests; makoctl, swaync-client)
#   desktop-file-utils                        desktop-file-validate: the installed desktop entries
#                                             (scripts/test-deb, InstallTests)
#   zsh fish                                  the completion scripts, run in the real shells
#   gnome-shell gnome-shell-extension-appindicator gjs
#                                             a real headless GNOME Shell 43 with its AppIndicator
#                                             extension (GnomeShellTests); gjs runs the shell's
#                                             notification proxy, without it nothing owns the name
#   eslint                                    the lint of iCare's GNOME Shell extension (gnome-extension/,
#                                             ShellExtensionTests); gjs also runs its ring.js there
#   pipewire pipewire-bin wireplumber         a real PipeWire daemon and session manager, headless,
#                                             and pw-record/pw-cli for the busy tests (PipeWireBusyTests)
#   gstreamer1.0-tools gstreamer1.0-pipewire  an app watching a video source (gst-launch-1.0 pipewiresrc):
#                                             a camera or a screen cast in use (PipeWireBusyTests)
#   valgrind binutils                         scripts/hot-functions: callgrind records what icared
#                                             runs; objcopy, nm
#   gdb                                       scripts/crash-report: the stacks of a test process
#                                             that dumped core (scripts/test prints them)
#   strace                                    what icared opens, writes and connects to, watched for
#                                             docs/privacy.md (PrivacyWatchTests)
#   plasma-workspace plasma-desktop kwin-x11 breeze
#                                             a real KDE Plasma 5.27 under Xvfb (PlasmaTests):
#                                             plasmashell's notifications and tray, kded5's watcher
#   kwin-wayland plasma-workspace-wayland kde-spectacle
#                                             the same on Wayland (kwin_wayland --virtual);
#                                             spectacle takes its screenshots
#   x11-utils                                 xprop: the accessibility bus's address on the root
#                                             window (HeadlessPlasma)
#   pipewire-pulse pulseaudio-utils           PipeWire's Pulse server, headless, and parecord
#                                             recording the null speakers (SoundServiceTests, bench/sound.sh)
#   libfaketime                               a Saturday for the app (LD_PRELOAD faketime):
#                                             the weekend's words (AppTroubleTests)
#   debootstrap curl                          the Debian 13 and testing roots of scripts/desktop-root
#                                             (GNOME Shell 48 / 50, Plasma 6.3 / 6.7: RootDesktopTests);
#                                             curl reads the mirror's InRelease to tell a root is current
#   piuparts adequate                         scripts/test-piuparts (the release's proof, part 10): Debian's own
#                                             install, upgrade and purge test in clean Debian 12 and 13 chroots;
#                                             adequate, which piuparts runs on the installed package
#   flatpak                                   iCare's Flatpak run for real (bwrap, xdg-dbus-proxy): scripts/flatpak
#   apt-utils appstream-compose               scripts/publish: apt-ftparchive for the apt repository, appstreamcli compose for the Flatpak's AppStream data
#                                             makes a Debian 13 test runtime and the app's bundles, FlatpakTests run them
#   xdg-desktop-portal xdg-desktop-portal-gtk  the portals a sandboxed icared asks (FlatpakTests' PortalRig):
#   xdg-desktop-portal-gnome                  Background (the gnome backend writes the autostart entry; the
#                                             gtk one shows the Access dialog) and Inhibit's session monitor
#   kdeconnect                                a real kdeconnectd paired with a fake phone (Tests/TestSupport/
#                                             fake-phone.py) in a private network namespace: what a phone
#                                             receives from the desktop (KDEConnectRig, KDEConnectRigTests)
#   python3-pyqt5                             Qt's own QSettings and QLockFile, writing and reading KDE
#                                             Connect's Run command lists beside iCare (PhoneRemoteTests)
#   gnome-shell-extension-gsconnect           GSConnect's service (gjs, under Xvfb) paired with the same fake
#                                             phone in a private network namespace: what a phone receives
#                                             through GSConnect (GSConnectRig, GSConnectRigTests)
#
# And Swift 6, the one thing Debian 12's apt cannot give: see the end.
#

# Locales the tests run icared, icarectl and the app in: each language of po/LINGUAS in the
# country whose desktop the tests take its words from (TranslationTests), and a 12-hour clock.
test_locales="nl_NL de_DE fr_FR es_ES pt_BR it_IT pl_PL zh_CN ja_JP ar_EG en_US"

packages=$build_run_packages
if [ -n "$with_deb" ]; then packages="$packages $deb_packages"; fi
if [ -n "$with_tests" ]; then packages="$packages $test_packages"; else test_locales=""; fi

if [ -n "$list" ]; then
  for p in $packages; do echo "$p"; done
  exit 0
fi

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
  # Package.swift asks pkg-config for libadwaita's folders, and SwiftPM keeps that answer in its
  # manifest cache: one `swift build` before this install would keep the app unbuildable after it.
  rm -rf "${XDG_CACHE_HOME:-$HOME/.cache}/org.swift.swiftpm/manifests"
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
