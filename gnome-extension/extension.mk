# iCare's GNOME Shell extension (gnome-extension/, issue 30), included by the
# top Makefile, whose variables (DATADIR, LOCALEDIR, DESTDIR, languages,
# prune, prune_stop) it uses:
#
#   make install / uninstall    the extension too, in $(SHELLEXTENSIONDIR)
#   make shell-extension-zip    build/ring@icare.org.shell-extension.zip, the
#                               file extensions.gnome.org takes (gnome-extensions
#                               pack where it is installed, else the same layout
#                               with zip)
#
# The Shell binds the extension's gettext domain (icare) to its locale/
# folder when it has one, else to the Shell's own /usr/share/locale: the
# catalogs go into the extension's folder unless LOCALEDIR is that one
# already (a package), and always into the zip.

shell_extension_uuid := ring@icare.org
SHELLEXTENSIONDIR ?= $(DATADIR)/gnome-shell/extensions/$(shell_extension_uuid)
# What the Shell loads; the lint config and this file stay out.
shell_extension_sources := metadata.json extension.js indicator.js ring.js state.js texts.js stylesheet.css
shell_extension_locale := $(if $(filter /usr/share/locale,$(LOCALEDIR)),,yes)
shell_extension_dest = $(D)$(SHELLEXTENSIONDIR)
shell_extension_files = $(addprefix $(shell_extension_dest)/,$(shell_extension_sources)) \
	$(if $(shell_extension_locale),$(foreach l,$(languages),$(shell_extension_dest)/locale/$(l)/LC_MESSAGES/icare.mo))
shell_extension_zip := build/$(shell_extension_uuid).shell-extension.zip

.PHONY: install-shell-extension uninstall-shell-extension shell-extension-zip

install-shell-extension:
	$(foreach f,$(shell_extension_sources),$(INSTALL) -D -m 0644 'gnome-extension/$(f)' '$(shell_extension_dest)/$(f)' &&) true
	@if [ -n '$(shell_extension_locale)' ]; then \
	  tmp=$$(mktemp -d) && scripts/po compile "$$tmp" && \
	  for l in $(languages); do \
	    $(INSTALL) -D -m 0644 "$$tmp/$$l/LC_MESSAGES/icare.mo" '$(shell_extension_dest)'/locale/$$l/LC_MESSAGES/icare.mo || exit 1; \
	  done; rm -rf "$$tmp"; \
	fi

uninstall-shell-extension:
	rm -f $(foreach f,$(shell_extension_files),'$(f)')
	@$(foreach f,$(shell_extension_files),$(call prune,$(patsubst %/,%,$(dir $(f))),$(prune_stop));)

shell-extension-zip:
	@mkdir -p build && rm -f '$(shell_extension_zip)'
	@if command -v gnome-extensions >/dev/null; then \
	  gnome-extensions pack gnome-extension --force --out-dir=build --podir=../po \
	    $(foreach f,$(filter-out metadata.json extension.js stylesheet.css,$(shell_extension_sources)),--extra-source=$(f)); \
	else \
	  tmp=$$(mktemp -d) && cp $(addprefix gnome-extension/,$(shell_extension_sources)) "$$tmp/" && \
	  scripts/po compile "$$tmp/locale" && (cd "$$tmp" && zip -qr - .) > '$(shell_extension_zip)'; \
	  status=$$?; rm -rf "$$tmp"; exit $$status; \
	fi
	@echo '$(shell_extension_zip)'
