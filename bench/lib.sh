# Sourced by the bench scripts: what each of them starts the same way.
#
#   bench_setup          the release build as `make` makes it (static Swift
#                        runtime), its folder in $bin; a temporary folder $work;
#                        $pids, whose processes are ended (woken first, for one
#                        a bench stopped with SIGSTOP) and reaped, with $work,
#                        when the script exits
#   bench_session_bus    a private dbus-daemon; exports DBUS_SESSION_BUS_ADDRESS
#   owned NAME           whether NAME has an owner on that bus
#   bench_start_icared   the release icared (the caller's environment), its log
#                        in $work/icared.log, its pid in $icared; waits until it
#                        owns org.icare.Reminder, else stops the bench
#   bench_root_package   for the suites in the Debian 13 / testing roots: exports
#                        ICARE_DEB (kept when set; else the newest build/deb
#                        package, `make deb` when there is none) and builds the
#                        tests; their bundle in $tests, run directly so that
#                        another SwiftPM holding .build's lock adds no wait

bench_setup() {
  swift build -c release --static-swift-stdlib >/dev/null
  bin=$(swift build -c release --static-swift-stdlib --show-bin-path)
  work=$(mktemp -d)
  pids=()
  trap bench_cleanup EXIT
}

bench_cleanup() {
  for p in "${pids[@]}"; do
    kill -CONT "$p" 2>/dev/null || true
    kill -9 "$p" 2>/dev/null || true
    wait "$p" 2>/dev/null || true
  done
  rm -rf "$work"
}

bench_session_bus() {
  dbus-daemon --session --nofork --nopidfile --print-address=1 >"$work/addr" 2>/dev/null &
  pids+=($!)
  for _ in $(seq 200); do [ -s "$work/addr" ] && break; sleep 0.01; done
  export DBUS_SESSION_BUS_ADDRESS=$(head -n1 "$work/addr")
}

owned() { busctl --user call org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus NameHasOwner s "$1" 2>/dev/null | grep -q true; }

bench_start_icared() {
  "$bin/icared" --log-stderr 2>>"$work/icared.log" &
  icared=$!
  pids+=($icared)
  for _ in $(seq 500); do owned org.icare.Reminder && return 0; sleep 0.01; done
  echo "bench: icared did not take org.icare.Reminder; its log:" >&2
  cat "$work/icared.log" >&2
  exit 1
}

bench_root_package() {
  if [ -z "${ICARE_DEB:-}" ]; then
    ls build/deb/icare_*_*.deb >/dev/null 2>&1 || make deb >/dev/null
    # shellcheck disable=SC2012  # the newest of icare_VERSION_ARCH.deb: plain names
    ICARE_DEB=$(ls -t "$PWD"/build/deb/icare_*_*.deb | head -n 1)
  fi
  export ICARE_DEB
  swift build --build-tests >/dev/null
  tests="$(swift build --show-bin-path)/icarePackageTests.xctest"
}
