# Sourced by scripts/run and scripts/demo: builds the products named in
# $products (default: icared and icarectl; scripts/run adds the app, icare),
# sets $bin to the folder they are in, and exports TEXTDOMAINDIR with the translations
# compiled for it, so a run from the build folder speaks the person's
# language as an installed one does.
#
# ICARE_BIN_DIR=DIR uses the programs already built in DIR (no packages, no
# build: the tests use their own build); otherwise the system packages are
# installed (scripts/deps.sh) and a release build is made.
if [ -n "${ICARE_BIN_DIR:-}" ]; then
  bin=$ICARE_BIN_DIR
else
  scripts/deps.sh
  for product in ${products:-icared icarectl}; do
    swift build -c release --static-swift-stdlib --product "$product"
  done
  bin=$(swift build -c release --static-swift-stdlib --show-bin-path)
fi
if [ -z "${TEXTDOMAINDIR:-}" ] && command -v msgfmt >/dev/null; then
  TEXTDOMAINDIR="$PWD/.build/locale"
  scripts/po compile "$TEXTDOMAINDIR"
  export TEXTDOMAINDIR
fi
