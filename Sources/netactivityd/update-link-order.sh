#!/usr/bin/env bash
# Regenerates link-order.txt: the functions netactivityd runs when it starts and serves calls, in the order the
# linker should place them (lld's --symbol-ordering-file). Packed together they fill few pages, so the daemon
# maps about 1.5 MB less of its binary; the most run come first, so that the code of a call shares cache lines
# with code of the same call rather than with start-up code; see docs/performance.md. Run it after changing what
# the daemon does on its hot paths; functions that no longer exist are ignored by the linker, so a stale list only
# costs memory.
# Needs valgrind. Usage: bash Sources/netactivityd/update-link-order.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
swift build -c release --product netactivityd >&2
swift build -c release --product netactivity-bench >&2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The benchmark starts the daemon under callgrind, which records every function that runs.
.build/release/netactivity-bench --duration 0.5 --signal-cycles 20 --cleanup-repetitions 3 --clients 20 \
  --daemon-wrapper "valgrind --tool=callgrind --demangle=no --callgrind-out-file=$work/callgrind.out" >&2
callgrind_annotate --inclusive=no --threshold=100 "$work"/callgrind.out* \
  | sed -nE 's/^ *[0-9,]+ \([^)]*\)  [^ ]*:([^ ]+) \[.*netactivityd\]$/\1/p' \
  | grep -v "'" | awk '!seen[$0]++' > Sources/netactivityd/link-order.txt
wc -l Sources/netactivityd/link-order.txt >&2
