#!/usr/bin/env bash
# Runs the test bundle TESTS in several processes at once, each with the given swift-testing arguments: one for
# each group of suites in TEST_GROUPS (swift-testing filters, separated by spaces), the slow suites that keep both
# cores busy while the serialized integration suites wait for their programs, and one for every other suite. Fails
# if any fails. `swift test` would take the build folder's lock more than once, so the bundle is run as
# `swift test` runs it.
#
#   TEST_GROUPS="A|B C" bash Tests/run-parts.sh TESTS [swift-testing arguments]
set -uo pipefail
tests=$1
shift
# With job control on, bash starts each as a job of its own rather than with SIGINT and SIGQUIT ignored, which
# the programs the tests start would inherit (and the tests of `netactivity run` check that it passes them on).
set -m
# The client examples (cargo, from nothing in a fresh clone, and the system's compilers), the benchmark and apps'
# traffic (a minute of paced transfers); the data usage, pausing and speed limits (a minute's take awaited, transfers paused,
# resumed and held: their tests block their threads, which the library's tests, elsewhere, must not wait for); the package
# (lintian) and the reliability runs. The sanitizer runs, which leave the client examples and the package out, name
# theirs.
default="ClientExampleTests|BenchmarkTests|TrafficTests|TrafficIdentityTests DataUsageTests|PauseTests|SpeedLimitTests|UsageStoreTests DebianPackageTests|ReliabilityTests"
# Split at white space, new lines included; a filter holds no character that a shell would expand.
groups=(${TEST_GROUPS:-$default})
jobs=()
others=()
for group in "${groups[@]}"; do
  "$tests" --testing-library swift-testing "$@" --filter "$group" &
  jobs+=($!)
  others+=(--skip "$group")
done
"$tests" --testing-library swift-testing "$@" "${others[@]}" &
jobs+=($!)
status=0
for job in "${jobs[@]}"; do
  wait "$job" || status=1
done
exit "$status"
