# The Flatpak half of scripts/publish (sourced there, with its out, url,
# release, work, fpr, GNUPGHOME, test_mode, die and say): the app committed to
# the OSTree repository DIR/flatpak, signed; its summary signed, with static
# deltas and the AppStream branch; the .flatpakref and .flatpakrepo files.

app_id=org.icare.Reminder
# Where the app's runtime (org.gnome.Platform) comes from: the address of Flathub's own .flatpakrepo
# file, as Flathub's set-up page gives it, in ICARE_RUNTIME_REPO (the release workflow's repository
# variable; no registry's address is written in this tree). --test needs none: its runtime is local.

# Commits the app to $out/flatpak, signed (build-export makes the repository the first time).
flatpak_app() {
  local sign=(--gpg-sign="$fpr" --gpg-homedir="$GNUPGHOME")
  if [ -n "$test_mode" ]; then
    # The binaries the release's .deb holds, on the Debian-made test runtime (scripts/flatpak).
    mkdir -p "$work/deb"
    dpkg-deb -x "${debs[-1]}" "$work/deb"
    local runtime_folder
    runtime_folder=$(ICARE_BIN_DIR=$work/deb/usr/bin scripts/flatpak --export "$out/flatpak" "${sign[@]}") \
      || die "scripts/flatpak could not build the app"
    # The runtime, from a stand-in for Flathub beside it: DIR/runtime, signed with the same key.
    # (A copy of the runtime's own repository, its commit signed: build-import-bundle needs a repository.)
    rm -rf "$out/runtime"
    cp -a "$runtime_folder/repo" "$out/runtime"
    flatpak build-sign "${sign[@]}" "$out/runtime" --runtime --arch="$(flatpak --default-arch)" org.icare.Test.Platform trixie \
      >/dev/null || die "could not sign the test runtime in $out/runtime"
    flatpak build-update-repo "${sign[@]}" --title="iCare's test runtime (a stand-in for Flathub)" \
      "$out/runtime" >/dev/null || die "build-update-repo failed on $out/runtime"
    runtime_repo=$url/runtime.flatpakrepo
    cat >"$out/runtime.flatpakrepo" <<EOF
[Flatpak Repo]
Title=iCare's test runtime (a stand-in for Flathub)
Url=$url/runtime
GPGKey=$(base64 -w0 "$out/icare-archive-keyring.gpg")
EOF
  else
    command -v flatpak-builder >/dev/null || die "flatpak-builder is missing (apt-get install flatpak-builder)"
    runtime_repo=${ICARE_RUNTIME_REPO:-}
    [[ $runtime_repo == https://*.flatpakrepo ]] \
      || die "ICARE_RUNTIME_REPO must be the https address of Flathub's .flatpakrepo file, where the GNOME runtime comes from."
    flatpak remote-add --user --if-not-exists flathub "$runtime_repo" >/dev/null
    flatpak-builder --user --install-deps-from=flathub --force-clean --default-branch=stable \
      "${sign[@]}" --repo="$out/flatpak" "$work/flatpak-build" flatpak/org.icare.Reminder.yml >"$work/builder.log" 2>&1 \
      || { tail -n 40 "$work/builder.log" >&2; die "flatpak-builder failed"; }
  fi
}

publish_flatpak() {
  local key64
  flatpak_app
  # The summary signed, the static deltas (from the previous commit too), the AppStream branch.
  flatpak build-update-repo --gpg-sign="$fpr" --gpg-homedir="$GNUPGHOME" --title=iCare --default-branch=stable \
    --generate-static-deltas --prune --prune-depth=3 "$out/flatpak" >"$work/update-repo.log" 2>&1 \
    || { cat "$work/update-repo.log" >&2; die "flatpak build-update-repo failed"; }
  key64=$(base64 -w0 "$out/icare-archive-keyring.gpg")
  cat >"$out/$app_id.flatpakref" <<EOF
[Flatpak Ref]
Title=iCare
Name=$app_id
Branch=stable
Url=$url/flatpak
SuggestRemoteName=icare
Homepage=https://github.com/icare-linux/icare
RuntimeRepo=$runtime_repo
IsRuntime=false
GPGKey=$key64
EOF
  cat >"$out/icare.flatpakrepo" <<EOF
[Flatpak Repo]
Title=iCare
Url=$url/flatpak
Homepage=https://github.com/icare-linux/icare
Comment=20-20-20 eye-break reminders
DefaultBranch=stable
GPGKey=$key64
EOF
  say "the Flatpak repository: $(flatpak repo --branches "$out/flatpak" 2>/dev/null | grep -c .) ref(s), $(du -sh "$out/flatpak" | cut -f1), summary signed"
}
