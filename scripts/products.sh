# Sourced by scripts/run and scripts/demo: builds the products named in
# $products (default: icared and icarectl; scripts/run adds the app, icare),
# sets $bin to the folder they are in, and exports TEXTDOMAINDIR with the translations
# compiled for it, so a run from the build folder speaks the person's
# language as an installed one does.
#
# ICARE_BIN_DIR=DIR uses the programs already built in DIR (no packages, no
# build: the tests use their own build); otherwise the system packages are
# installed (scripts/deps.sh) and a release build is made (SCRATCH and
# SWIFT_EXTRA_FLAGS as the Makefile takes them).
if [ -n "${ICARE_BIN_DIR:-}" ]; then
  bin=$ICARE_BIN_DIR
else
  scripts/deps.sh
  # As the Makefile's build: SCRATCH=DIR builds in DIR instead of .build, SWIFT_EXTRA_FLAGS adds flags
  # (scripts/test-release runs scripts/run on the build its source package made, with the same ones).
  # shellcheck disable=SC2206 # the flags are words, as make passes them
  build=(swift build -c release --static-swift-stdlib ${SWIFT_EXTRA_FLAGS:-} ${SCRATCH:+--scratch-path "$SCRATCH"})
  for product in ${products:-icared icarectl}; do
    "${build[@]}" --product "$product"
  done
  bin=$("${build[@]}" --show-bin-path)
fi
if [ -z "${TEXTDOMAINDIR:-}" ] && command -v msgfmt >/dev/null; then
  TEXTDOMAINDIR="$PWD/.build/locale"
  scripts/po compile "$TEXTDOMAINDIR"
  export TEXTDOMAINDIR
fi
