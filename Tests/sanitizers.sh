#!/usr/bin/env bash
# The test suite in a build with a sanitizer: every target, the daemon, the command and the tray that the tests
# start included (docs/testing.md, "Sanitizers"), less the suites that run only others' programs and the desktops
# on screen.
#
#   bash Tests/sanitizers.sh address [swift test arguments]    AddressSanitizer, with its leak check
#   bash Tests/sanitizers.sh thread  [swift test arguments]    ThreadSanitizer
#   bash Tests/sanitizers.sh address|thread --build-only         the sanitized build alone (.ci/run makes both
#                                                                while the suite runs)
#
# Each sanitized program writes what it finds to a report file of its own in a folder the script makes (not to
# stderr, where a test that reads a program's output would take it for the program's); the run fails when a test
# fails or when any report was written, and prints them. The build is .build-asan or .build-tsan.
set -euo pipefail
cd "$(dirname "$0")/.."
kind="${1:-}"
[ $# -gt 0 ] && shift
case "$kind" in
  address) scratch=.build-asan ;;
  thread) scratch=.build-tsan ;;
  *)
    echo "usage: bash Tests/sanitizers.sh address|thread [--build-only | swift test arguments]" >&2
    exit 2
    ;;
esac
build=(--scratch-path "$scratch" -Xswiftc "-sanitize=$kind")
if [ "${1:-}" = --build-only ]; then
  exec swift build "${build[@]}" --build-tests
fi
# Every program writes its report here and reads the suppressions from here, those the tests run as another user
# (nobody, in the waybar host) included: the checkout may be a private folder they cannot enter.
reports="$(mktemp -d)"
support="$(mktemp -d)"
chmod 1777 "$reports"
chmod 755 "$support"
cp Tests/Sanitizers/leaks.supp Tests/Sanitizers/races.supp "$support/"
chmod 644 "$support"/*.supp
case "$kind" in
  address)
    export ASAN_OPTIONS="log_path=$reports/asan:detect_leaks=1:abort_on_error=0"
    export LSAN_OPTIONS="suppressions=$support/leaks.supp:print_suppressions=0"
    ;;
  thread)
    export TSAN_OPTIONS="log_path=$reports/tsan:suppressions=$support/races.supp:print_suppressions=0"
    ;;
esac
# Read by the tests that measure memory or time, which a sanitized build would make meaningless.
export NETACTIVITY_SANITIZER="$kind"
# The Swift runtime's crash report would run inside the sanitizer's own.
export SWIFT_BACKTRACE=enable=no

[ "${NETACTIVITY_TOOLS_INSTALLED:-}" = 1 ] || bash Tests/install-tools.sh
swift build --package-path Benchmarks
# Suites that run only programs that are not ours under a sanitized build: the client examples (cargo, gcc, Qt's
# generators), the package (lintian, dpkg), the manual pages (man), the README's example (swiftc) and the shell
# hook (the shells, with a stand-in netactivity), the GNOME Shell extension (JavaScript, in gjs and the Shell), and
# Debian's newer desktops (the release build, in their roots). And the desktops on screen (by hand: `bash
# Tests/sanitizers.sh address --filter HostRenderingTests`): they test what hosts draw, in hosts that give the tray
# their own deadlines, which a sanitizer's slowdown would test instead; the tray's objects are sanitized in the
# suites here, called by real clients, and fuzzed under AddressSanitizer (Tests/fuzz.sh). And two suites whose time
# is waiting, not code a sanitizer reads more of: a user's forty namespaces (TrafficIdentityTests: the identity's
# code runs in TrafficTests), the usage file's minute (UsageStoreTests: the file's code runs in DataUsageTests) and
# the speed limits' twelve-second transfers at full speed (SpeedLimitTests: the rules' file runs in
# LimitRulesTests, the kernel's held map, which a limit writes as a pause does, in PauseTests).
# And the benchmark's own checks (BenchmarkTests: that the tool reports its figures, which a sanitized build makes
# meaningless): the daemon's load under the sanitizer is ReliabilityTests' (the stress with restarts, a thousand
# connections at once, the fuzzer), the sources' PackageKitTests'. Every other suite runs our programs, and stays.
outside=(--skip ClientExampleTests --skip DebianPackageTests --skip ManualPageTests --skip ReadmeExampleTests
         --skip ShellHookTests --skip ShellExtensionTests --skip DebianDesktopTests --skip HostRenderingTests
         --skip TrafficIdentityTests --skip UsageStoreTests --skip SpeedLimitTests --skip BenchmarkTests)
# ThreadSanitizer looks for races between threads: the service's loop is one thread, so it runs the unit tests and
# the suites whose programs use threads (the client library's tasks, connections used from other threads, the
# tray, the command's runs and watches, restarts and many clients at once); AddressSanitizer runs every suite.
units="^(NetworkActivityTests|DBusKitTests|NetworkActivityServiceTests|DesktopIndicatorTests|ProgramSupportTests"
units+="|LocalizationTests|NetActivityCommandTests)\\."
# In two processes of about the same time (the integration suites run one after another within one).
threaded="ReliabilityTests|RestartTests|RunCancellationTests|RunCommandTests|SharedConnectionTests"
tray="TrayProtocolTests|TrayMenuTests|WatchCommandTests|CommandLineTests|ClientLibraryTests|ClientProgressTests"
status=0
if [ $# -gt 0 ]; then
  swift test "${build[@]}" --disable-xctest "$@" || status=$?
else
  swift build "${build[@]}" --build-tests
  bundle="$(swift build "${build[@]}" --show-bin-path)/netactivityPackageTests.xctest"
  if [ "$kind" = thread ]; then
    "$bundle" --testing-library swift-testing --filter "$units" & unitTests=$!
    "$bundle" --testing-library swift-testing --filter "$tray" & trayTests=$!
    "$bundle" --testing-library swift-testing --filter "$threaded" || status=$?
    wait "$unitTests" || status=$?
    wait "$trayTests" || status=$?
  else
  # Three groups of suites, each taking about as long, sanitized, as all the others together.
  TEST_GROUPS="ReliabilityTests|CommandLineTests|TrafficTests
               DataUsageTests|PauseTests
               TrayProtocolTests|CompletionTests|WatchCommandTests|RestartTests|PackageKitTests" \
    bash Tests/run-parts.sh "$bundle" "${outside[@]}" || status=$?
  fi
fi
if compgen -G "$reports/*" > /dev/null; then
  for report in "$reports"/*; do
    echo "== $report"
    cat "$report"
  done
  echo "sanitizers.sh: the $kind sanitizer reported the above" >&2
  status=1
fi
rm -rf "$reports" "$support"
exit "$status"
