# iCare for Linux: build, install and uninstall.
#
#   make                      swift build -c release (icared, icarectl, icare)
#   make install              for you alone, into ~/.local (the default PREFIX)
#   make install PREFIX=/usr/local           (as root: for everyone)
#   make install PREFIX=/usr DESTDIR=$(pwd)/debian/icare  (a package)
#   make uninstall            with the same variables as install
#   make demo                 try it in a minute: scripts/demo (a private bus,
#                             icared 60 times faster, icarectl watch)
#   make shell-extension-zip  the GNOME Shell extension's zip for extensions.gnome.org
#                             (gnome-extension/extension.mk; install and uninstall
#                             include the extension)
#   make deb                  the Debian package (dpkg-buildpackage -us -uc -b,
#                             debian/), then lintian; everything lands in
#                             build/deb: icare_VERSION_ARCH.deb, .changes,
#                             .buildinfo. Needs swift on PATH (or SWIFT=…).
#
# `install` builds first (a no-op when the release build is up to date). To
# install as root from a tree that you built as yourself, run `make` and then
# `sudo make install NO_BUILD=1 PREFIX=/usr/local`: that installs the release
# binaries already there and runs no compiler as root. BINSRC=DIR installs
# the binaries of DIR instead (the tests use their own build).
#
# Directories (all overridable):
#
#   PREFIX               ~/.local, /usr/local or /usr
#   BINDIR               $(PREFIX)/bin
#   DATADIR              $(PREFIX)/share
#   MANDIR               $(DATADIR)/man
#   SYSCONFDIR           /etc for PREFIX /usr and /usr/local (the only place
#                        XDG autostart is read from), else $(PREFIX)/etc
#   SYSTEMDUSERUNITDIR   $(PREFIX)/lib/systemd/user; for a PREFIX inside
#                        $(HOME): $(DATADIR)/systemd/user, the folder the
#                        user manager reads (~/.local/share/systemd/user)
#   DBUSSERVICEDIR       $(DATADIR)/dbus-1/services
#   DBUSINTERFACEDIR     $(DATADIR)/dbus-1/interfaces
#   APPLICATIONSDIR      $(DATADIR)/applications
#   ICONDIR              $(DATADIR)/icons/hicolor/scalable/apps
#   SYMBOLICICONDIR      $(DATADIR)/icons/hicolor/symbolic/apps
#   METAINFODIR          $(DATADIR)/metainfo (AppStream: what software centres show)
#   AUTOSTARTDIR         $(SYSCONFDIR)/xdg/autostart; for a PREFIX inside
#                        $(HOME): $XDG_CONFIG_HOME/autostart (~/.config/autostart)
#   BASHCOMPLETIONDIR    $(DATADIR)/bash-completion/completions
#   ZSHCOMPLETIONDIR     $(DATADIR)/zsh/site-functions (Debian packages:
#                        /usr/share/zsh/vendor-completions)
#   FISHCOMPLETIONDIR    $(DATADIR)/fish/vendor_completions.d
#   LOCALEDIR            $(DATADIR)/locale (the translations; icared and
#                        icarectl look in ../share/locale beside their bin/)
#
# For ~/.local the D-Bus activation file, the user unit, the desktop entry,
# the icon, the man pages and the bash completion land where the session
# bus, systemd, the desktop, man and bash look by default; zsh needs
# ~/.local/share/zsh/site-functions in its fpath, fish reads
# ~/.local/share/fish/vendor_completions.d only if ~/.local/share is in
# XDG_DATA_DIRS. Whoever sets XDG_DATA_HOME elsewhere passes DATADIR too.
#
# Uninstall removes exactly the files install writes, then every folder left
# empty by that (never DESTDIR, PREFIX outside your home, $(HOME), or the
# parent of an autostart folder outside PREFIX). It never touches your settings ($XDG_CONFIG_HOME/icare) or your
# history ($XDG_STATE_HOME/icare).

SWIFT ?= swift
# The Swift runtime linked in statically: the idle service takes about 2.5 MB
# less memory and starts about 2 ms sooner, and the binaries need no Swift
# runtime installed (bench/run.sh measures both).
SWIFT_BUILD_FLAGS ?= --static-swift-stdlib
# More flags for swift build, e.g. linker hardening (debian/rules passes
# -Xlinker -z -Xlinker now: full RELRO, as Debian builds C programs).
SWIFT_EXTRA_FLAGS ?=
# SCRATCH=DIR builds in DIR instead of .build (debian/rules does, so that a
# package build neither uses nor removes your own build).
SCRATCH ?=
scratch_flag := $(if $(SCRATCH),--scratch-path '$(SCRATCH)')

PREFIX ?= $(HOME)/.local
DESTDIR ?=

# A per-person install: PREFIX is $(HOME) or inside it.
home_prefix := $(if $(HOME),$(if $(filter $(HOME) $(HOME)/%,$(PREFIX)),yes))
xdg_config_home := $(or $(XDG_CONFIG_HOME),$(HOME)/.config)

BINDIR ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share
MANDIR ?= $(DATADIR)/man
SYSCONFDIR ?= $(if $(filter /usr /usr/local,$(PREFIX)),/etc,$(PREFIX)/etc)
SYSTEMDUSERUNITDIR ?= $(if $(home_prefix),$(DATADIR)/systemd/user,$(PREFIX)/lib/systemd/user)
DBUSSERVICEDIR ?= $(DATADIR)/dbus-1/services
DBUSINTERFACEDIR ?= $(DATADIR)/dbus-1/interfaces
APPLICATIONSDIR ?= $(DATADIR)/applications
ICONDIR ?= $(DATADIR)/icons/hicolor/scalable/apps
SYMBOLICICONDIR ?= $(DATADIR)/icons/hicolor/symbolic/apps
METAINFODIR ?= $(DATADIR)/metainfo
AUTOSTARTDIR ?= $(if $(home_prefix),$(xdg_config_home)/autostart,$(SYSCONFDIR)/xdg/autostart)
BASHCOMPLETIONDIR ?= $(DATADIR)/bash-completion/completions
ZSHCOMPLETIONDIR ?= $(DATADIR)/zsh/site-functions
FISHCOMPLETIONDIR ?= $(DATADIR)/fish/vendor_completions.d
LOCALEDIR ?= $(DATADIR)/locale

# The languages translated (po/LINGUAS) and the man pages generated in them.
languages := $(shell grep -v '^\#' po/LINGUAS)
man_languages := $(notdir $(wildcard $(addprefix man/,$(languages))))

# Where the release binaries are: asked of swift only by the rules that
# install, `.build/release` when swift is not on PATH (sudo's secure_path).
# Computed at most once per make run.
ifeq ($(origin BINSRC),undefined)
BINSRC = $(eval BINSRC := $$(shell $(SWIFT) build -c release --show-bin-path $(SWIFT_BUILD_FLAGS) $(SWIFT_EXTRA_FLAGS) $(scratch_flag) 2>/dev/null || echo .build/release))$(BINSRC)
endif

# Builds before installing unless NO_BUILD is set or BINSRC was given.
install_needs_build := $(if $(NO_BUILD),,$(if $(filter command line environment,$(origin BINSRC)),,build))

INSTALL ?= install
SED_PATHS = sed -e 's|@bindir@|$(BINDIR)|g' -e 's|@datadir@|$(DATADIR)|g' \
	-e 's|@prefix@|$(PREFIX)|g' -e 's|@sysconfdir@|$(SYSCONFDIR)|g'

D := $(DESTDIR)

# The installed files, for install and uninstall alike.
installed_files = \
	$(D)$(BINDIR)/icared \
	$(D)$(BINDIR)/icarectl \
	$(D)$(BINDIR)/icare \
	$(D)$(DBUSSERVICEDIR)/org.icare.Reminder.service \
	$(D)$(DBUSSERVICEDIR)/org.icare.Reminder.Window.service \
	$(D)$(DBUSINTERFACEDIR)/org.icare.Reminder.xml \
	$(D)$(SYSTEMDUSERUNITDIR)/icared.service \
	$(D)$(APPLICATIONSDIR)/org.icare.Reminder.desktop \
	$(D)$(ICONDIR)/org.icare.Reminder.svg \
	$(D)$(SYMBOLICICONDIR)/org.icare.Reminder-symbolic.svg \
	$(D)$(METAINFODIR)/org.icare.Reminder.metainfo.xml \
	$(D)$(AUTOSTARTDIR)/icared-autostart.desktop \
	$(D)$(MANDIR)/man1/icarectl.1 \
	$(D)$(MANDIR)/man1/icare.1 \
	$(D)$(MANDIR)/man8/icared.8 \
	$(D)$(BASHCOMPLETIONDIR)/icarectl \
	$(D)$(ZSHCOMPLETIONDIR)/_icarectl \
	$(D)$(FISHCOMPLETIONDIR)/icarectl.fish \
	$(foreach l,$(languages),$(D)$(LOCALEDIR)/$(l)/LC_MESSAGES/icare.mo) \
	$(foreach l,$(man_languages),$(D)$(MANDIR)/$(l)/man1/icarectl.1)

# The files of iCare's first id, org.icare.app, which never reached a release: install and uninstall
# remove them from the same folders (docs/architecture.md, "The app's id and its name").
renamed_files = \
	$(D)$(APPLICATIONSDIR)/org.icare.app.desktop \
	$(D)$(ICONDIR)/org.icare.app.svg \
	$(D)$(SYMBOLICICONDIR)/org.icare.app-symbolic.svg \
	$(D)$(METAINFODIR)/org.icare.app.metainfo.xml

.PHONY: all build install uninstall print-dirs demo deb deb-package

all: build

build:
	$(SWIFT) build -c release $(SWIFT_BUILD_FLAGS) $(SWIFT_EXTRA_FLAGS) $(scratch_flag)

# The Debian package, in build/deb. debian/rules calls this Makefile's build
# and install (PREFIX=/usr); lintian must find nothing to warn about. First
# the packaging tools and Build-Depends (scripts/deps.sh --deb, through sudo
# when not root). Debian's own Swift (swiftlang) is a Build-Depends; a Swift
# that no package installed (swift.org's) builds with the profile
# pkg.icare.swiftorg, which drops it. The tests are not built (nocheck): the
# source package's own build does that (scripts/test-release).
deb_dir := $(CURDIR)/build/deb
deb_version = $(shell dpkg-parsechangelog -S Version)
deb_arch = $(shell dpkg-architecture -qDEB_HOST_ARCH)
deb_swift = $(shell command -v $(SWIFT))
deb_profile = $(if $(shell dpkg -S '$(realpath $(deb_swift))' 2>/dev/null),,--build-profiles=pkg.icare.swiftorg)
# make expands a recipe's every line before it runs the first, so the
# package is made by a second make, once deps.sh has installed dpkg-dev.
deb:
	scripts/deps.sh --deb
	$(MAKE) --no-print-directory deb-package

deb-package:
	mkdir -p '$(deb_dir)'
	rm -f '$(deb_dir)'/icare_*
	ICARE_DEB_DIR='$(deb_dir)' SWIFT='$(deb_swift)' DEB_BUILD_OPTIONS='nocheck $(DEB_BUILD_OPTIONS)' \
	  dpkg-buildpackage -us -uc -b $(deb_profile) \
	  --buildinfo-file='$(deb_dir)/icare_$(deb_version)_$(deb_arch).buildinfo' --buildinfo-option=-u'$(deb_dir)' \
	  --changes-file='$(deb_dir)/icare_$(deb_version)_$(deb_arch).changes' --changes-option=-u'$(deb_dir)'
	lintian --fail-on error,warning --info '$(deb_dir)/icare_$(deb_version)_$(deb_arch).changes'

# Nothing of the person's is touched: see scripts/demo.
demo:
	scripts/demo

# install_file SRC DEST MODE: copy one file.
install_file = $(INSTALL) -D -m $(3) '$(1)' '$(2)'
# install_subst SRC DEST: a template with @bindir@ etc. replaced, mode 0644.
install_subst = mkdir -p '$(dir $(2))' && $(SED_PATHS) '$(1)' > '$(2).tmp' && chmod 0644 '$(2).tmp' && mv -f '$(2).tmp' '$(2)'
# install_desktop SRC DEST: install_subst, then the translations merged in
# (Name[nl]=… from po/nl.po) by msgfmt --desktop.
install_desktop = $(call install_subst,$(1),$(2).in) && scripts/po desktop '$(2).in' '$(2).tmp' \
	&& rm -f '$(2).in' && chmod 0644 '$(2).tmp' && mv -f '$(2).tmp' '$(2)'

install: $(install_needs_build) install-shell-extension
	@test -x '$(BINSRC)/icared' && test -x '$(BINSRC)/icarectl' && test -x '$(BINSRC)/icare' || { \
	  echo "make install: no release build in '$(BINSRC)'; run 'make' first." >&2; exit 1; }
	rm -f $(foreach f,$(renamed_files),'$(f)')
	$(call install_file,$(BINSRC)/icared,$(D)$(BINDIR)/icared,0755)
	$(call install_file,$(BINSRC)/icarectl,$(D)$(BINDIR)/icarectl,0755)
	$(call install_file,$(BINSRC)/icare,$(D)$(BINDIR)/icare,0755)
	$(call install_subst,dbus/org.icare.Reminder.service.in,$(D)$(DBUSSERVICEDIR)/org.icare.Reminder.service)
	$(call install_subst,dbus/org.icare.Reminder.Window.service.in,$(D)$(DBUSSERVICEDIR)/org.icare.Reminder.Window.service)
	$(call install_file,dbus/org.icare.Reminder.xml,$(D)$(DBUSINTERFACEDIR)/org.icare.Reminder.xml,0644)
	$(call install_subst,systemd/icared.service.in,$(D)$(SYSTEMDUSERUNITDIR)/icared.service)
	$(call install_desktop,data/org.icare.Reminder.desktop.in,$(D)$(APPLICATIONSDIR)/org.icare.Reminder.desktop)
	$(call install_file,data/icons/org.icare.Reminder.svg,$(D)$(ICONDIR)/org.icare.Reminder.svg,0644)
	$(call install_file,data/icons/org.icare.Reminder-symbolic.svg,$(D)$(SYMBOLICICONDIR)/org.icare.Reminder-symbolic.svg,0644)
	mkdir -p '$(D)$(METAINFODIR)' && scripts/po metainfo '$(D)$(METAINFODIR)/org.icare.Reminder.metainfo.xml.tmp' \
	  && chmod 0644 '$(D)$(METAINFODIR)/org.icare.Reminder.metainfo.xml.tmp' \
	  && mv -f '$(D)$(METAINFODIR)/org.icare.Reminder.metainfo.xml.tmp' '$(D)$(METAINFODIR)/org.icare.Reminder.metainfo.xml'
	$(call install_desktop,data/icared-autostart.desktop.in,$(D)$(AUTOSTARTDIR)/icared-autostart.desktop)
	$(call install_file,man/icarectl.1,$(D)$(MANDIR)/man1/icarectl.1,0644)
	$(call install_file,man/icare.1,$(D)$(MANDIR)/man1/icare.1,0644)
	$(call install_file,man/icared.8,$(D)$(MANDIR)/man8/icared.8,0644)
	$(foreach l,$(man_languages),$(call install_file,man/$(l)/icarectl.1,$(D)$(MANDIR)/$(l)/man1/icarectl.1,0644) &&) true
	@tmp=$$(mktemp -d) && scripts/po compile "$$tmp" && \
	  for l in $(languages); do \
	    $(INSTALL) -D -m 0644 "$$tmp/$$l/LC_MESSAGES/icare.mo" '$(D)$(LOCALEDIR)'/$$l/LC_MESSAGES/icare.mo || exit 1; \
	  done; rm -rf "$$tmp"
	$(call install_file,completions/icarectl.bash,$(D)$(BASHCOMPLETIONDIR)/icarectl,0644)
	$(call install_file,completions/_icarectl,$(D)$(ZSHCOMPLETIONDIR)/_icarectl,0644)
	$(call install_file,completions/icarectl.fish,$(D)$(FISHCOMPLETIONDIR)/icarectl.fish,0644)
	@if [ -z '$(DESTDIR)' ] && [ -n '$(home_prefix)' ]; then \
	  echo; \
	  echo "Installed for $(USER). The first icarectl call starts the service;"; \
	  echo "to start it with every graphical session:"; \
	  echo "    systemctl --user daemon-reload && systemctl --user enable --now icared.service"; \
	fi

# prune DIR STOP: remove DIR and its parents while they are empty, staying
# strictly below STOP.
prune = d='$(1)'; while case "$$d" in '$(2)'/?*) true ;; *) false ;; esac \
	  && rmdir "$$d" 2>/dev/null; do d=$$(dirname "$$d"); done

# Folders left empty are pruned up to DESTDIR when staging; for a PREFIX in
# your home up to $(HOME) (so ~/.local/share/… and ~/.config/autostart go
# when empty, ~/.local and ~/.config too); else up to PREFIX, which stays.
# An autostart folder outside PREFIX (/etc/xdg/autostart) goes when empty,
# its parent never.
prune_stop = $(if $(DESTDIR),$(DESTDIR),$(if $(home_prefix),$(HOME),$(PREFIX)))
autostart_stop = $(if $(DESTDIR),$(DESTDIR),$(if $(home_prefix),$(HOME),$(if $(filter $(PREFIX)/%,$(AUTOSTARTDIR)),$(PREFIX),$(patsubst %/,%,$(dir $(AUTOSTARTDIR))))))

uninstall: uninstall-shell-extension
	rm -f $(foreach f,$(installed_files) $(renamed_files),'$(f)')
	@$(foreach f,$(filter-out $(D)$(AUTOSTARTDIR)/%,$(installed_files)),$(call prune,$(patsubst %/,%,$(dir $(f))),$(prune_stop));)
	@$(call prune,$(D)$(AUTOSTARTDIR),$(autostart_stop))

include gnome-extension/extension.mk

print-dirs:
	@echo "PREFIX=$(PREFIX)"; echo "BINDIR=$(BINDIR)"; echo "DATADIR=$(DATADIR)"; \
	echo "MANDIR=$(MANDIR)"; echo "SYSCONFDIR=$(SYSCONFDIR)"; \
	echo "SYSTEMDUSERUNITDIR=$(SYSTEMDUSERUNITDIR)"; echo "DBUSSERVICEDIR=$(DBUSSERVICEDIR)"; \
	echo "DBUSINTERFACEDIR=$(DBUSINTERFACEDIR)"; echo "APPLICATIONSDIR=$(APPLICATIONSDIR)"; \
	echo "ICONDIR=$(ICONDIR)"; echo "SYMBOLICICONDIR=$(SYMBOLICICONDIR)"; echo "METAINFODIR=$(METAINFODIR)"; echo "AUTOSTARTDIR=$(AUTOSTARTDIR)"; \
	echo "BASHCOMPLETIONDIR=$(BASHCOMPLETIONDIR)"; echo "ZSHCOMPLETIONDIR=$(ZSHCOMPLETIONDIR)"; \
	echo "FISHCOMPLETIONDIR=$(FISHCOMPLETIONDIR)"; echo "LOCALEDIR=$(LOCALEDIR)"
