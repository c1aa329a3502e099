#!/usr/bin/env bash
# The time scripts/publish --test takes to write iCare's repositories from a
# release (docs/repositories.md), as a small table; read, not asserted.
# Needs root (the Flatpak test runtime) and a release (scripts/release, or
# RELEASE=DIR). Three publications: into an empty tree, the same version
# again, and the next version into that tree (a new pool entry, a new
# Flatpak commit with its static delta); then the tree's size.
#   bench/publish.sh                 from build/release
#   RELEASE=DIR bench/publish.sh     from another release folder
set -euo pipefail
cd "$(dirname "$0")/.."
release=${RELEASE:-build/release}
deb=$(ls "$release"/icare_*.deb 2>/dev/null | head -n 1)
[ -n "$deb" ] || { echo "bench/publish.sh: no .deb in $release; run scripts/release first" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export GNUPGHOME=$work/gnupg
mkdir -m 0700 "$GNUPGHOME"
gpg --batch --quiet --passphrase '' --quick-gen-key "bench <bench@icare.invalid>" ed25519 sign never 2>/dev/null
gpg --batch --armor --export-secret-keys bench@icare.invalid >"$work/key.asc"
# The next version: the same .deb with its version raised (as scripts/test-repos makes it).
version=$(dpkg-deb -f "$deb" Version)
IFS=. read -r major minor patch <<<"${version%-*}"
next="$major.$minor.$((patch + 1))-1"
dpkg-deb -R "$deb" "$work/deb"
sed -i "s/^Version: .*/Version: $next/" "$work/deb/DEBIAN/control"
mkdir -p "$work/next"
dpkg-deb -b --root-owner-group "$work/deb" "$work/next/icare_${next}_amd64.deb" >/dev/null

seconds() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }
row() { printf '%-52s %12s\n' "$1" "$2"; }
publish() { ICARE_SIGNING_KEY_FILE=$work/key.asc scripts/publish --test "$work/tree" "$1" >/dev/null 2>&1; }

# The runtime made or found current first, so that no row holds a debootstrap.
scripts/flatpak --runtime 2>/dev/null
row "what" "figure"
t0=$(date +%s.%N); publish "$release"; row "publish $version into an empty tree (s)" "$(seconds "$t0")"
t0=$(date +%s.%N); publish "$release"; row "publish $version again (s)" "$(seconds "$t0")"
t0=$(date +%s.%N); publish "$work/next"; row "publish $next beside it (s)" "$(seconds "$t0")"
row "the apt repository (kB)" "$(du -sk "$work/tree/apt" | cut -f1)"
row "the Flatpak repository, 2 commits and a delta (kB)" "$(du -sk "$work/tree/flatpak" | cut -f1)"
row "the test runtime's stand-in (kB)" "$(du -sk "$work/tree/runtime" | cut -f1)"
