#!/usr/bin/env bash
# Builds the fuzz targets (Tests/Fuzzing) with libFuzzer and AddressSanitizer in .build-fuzz, and runs each for a
# fixed time from its seed corpus and dictionary; fails on the first crash or broken oracle, and says where the
# input that did it is. docs/reliability.md has the targets and their long runs.
#
#   bash Tests/fuzz.sh [--seconds N] [--jobs J] [TARGET...]   (60 s each, one at a time, every target, by default)
#   bash Tests/fuzz.sh --build-only [TARGET...]                  the builds alone (.ci/run makes them early)
#
# New inputs go to .build-fuzz/corpus/TARGET (or $FUZZ_WORK/TARGET), never into the repository's corpus: add one
# there by hand when it is a regression test, that is, after it crashed a target and the fault is fixed.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=60
jobs=1
build_only=false
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    --build-only) build_only=true; shift ;;
    *) targets+=("$1"); shift ;;
  esac
done
[ ${#targets[@]} -gt 0 ] || targets=(fuzz-service-object fuzz-tray-objects fuzz-activity-table fuzz-outside-text)
work="${FUZZ_WORK:-$PWD/.build-fuzz/corpus}"

# One product at a time: built for libFuzzer, the programs that are not fuzz targets would not link.
# A build that fails stops the script: the binary of an earlier build would be fuzzed in its place.
for target in "${targets[@]}"; do
  log=$(mktemp)
  if ! swift build --scratch-path .build-fuzz -Xswiftc -sanitize=fuzzer,address -Xlinker --export-dynamic \
       --product "$target" >"$log" 2>&1; then
    grep -Ev "^\[|Cannot export local symbol" "$log" >&2 || true
    rm -f "$log"
    echo "fuzz.sh: $target did not build" >&2
    exit 1
  fi
  rm -f "$log"
done
"$build_only" && exit 0

# Runs one target for its time; its summary and, on failure, where its input is.
fuzz() {
  local target=$1 status=0 dictionary=()
  mkdir -p "$work/$target"
  [ -f "Tests/Fuzzing/$target.dict" ] && dictionary=("-dict=Tests/Fuzzing/$target.dict")
  # The Swift runtime's own crash report reads the stack in a way AddressSanitizer reports; libFuzzer's is enough.
  SWIFT_BACKTRACE=enable=no ".build-fuzz/debug/$target" -max_total_time="$seconds" -timeout=10 -print_final_stats=1 \
    "${dictionary[@]}" -artifact_prefix="$work/$target-" "$work/$target" "Tests/Fuzzing/Corpus/$target" \
    > "$work/$target.log" 2>&1 || status=$?
  echo "== $target, $seconds s"
  grep -E "^#[0-9]+[[:space:]]+(INITED|DONE)|^stat::(number_of_executed_units|new_units_added|peak_rss_mb)" "$work/$target.log" || true
  if [ "$status" -ne 0 ]; then
    grep -E "ERROR|Fatal error|oracle|Test unit written" "$work/$target.log" | head -5 >&2 || true
    echo "fuzz.sh: $target failed (exit $status); its log is $work/$target.log" >&2
    return 1
  fi
}

# --jobs targets at a time, each on a core of its own.
failed=0
running=0
for target in "${targets[@]}"; do
  if [ "$running" -ge "$jobs" ]; then
    wait -n || failed=1
    running=$((running - 1))
  fi
  fuzz "$target" &
  running=$((running + 1))
done
while [ "$running" -gt 0 ]; do
  wait -n || failed=1
  running=$((running - 1))
done
exit "$failed"
