#!/usr/bin/env bash
# Runs the test bundle TESTS in two processes at once, each with the given swift-testing arguments: the suites that
# take longest (the client examples, built with cargo and the system's compilers; the reliability runs) in one,
# the rest in the other, so that both cores are busy while the serialized integration suites wait for their
# programs. Fails if either fails. `swift test` would take the build folder's lock twice, so the bundle is run
# as `swift test` runs it.
#
#   bash Tests/run-halves.sh TESTS [swift-testing arguments]
set -uo pipefail
tests=$1
shift
# With job control on, bash starts the two as jobs of their own rather than with SIGINT and SIGQUIT ignored, which
# the programs the tests start would inherit (and the tests of `netactivity run` check that it passes them on).
set -m
# The sanitizer runs, which leave the client examples out, name more (LONG_SUITES).
long="${LONG_SUITES:-ClientExampleTests|ReliabilityTests|BenchmarkTests}"
"$tests" --testing-library swift-testing "$@" --filter "$long" &
first=$!
"$tests" --testing-library swift-testing "$@" --skip "$long" &
second=$!
status=0
wait "$first" || status=1
wait "$second" || status=1
exit "$status"
