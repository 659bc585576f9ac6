#!/usr/bin/env bash
# Regenerates link-order.txt: the functions the plain forms of netactivity run (begin, end, run -- true, and watch
# until it has printed a change and its calls' deadlines have passed), in the order the linker should place them (lld's --symbol-ordering-file). Packed
# together they fill few pages, so a panel's `watch`, which runs all day, keeps less of the binary in memory; see
# docs/performance.md. Run it after changing what these forms do; functions that no longer exist are ignored by the
# linker, so a stale list only costs memory. Needs valgrind. Usage: bash Sources/netactivity/update-link-order.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
programs=(netactivity)
source Sources/netactivity/link-order-session.sh

# Runs netactivity under callgrind, as this process (so that a background one's $! is callgrind's).
traced() {
  exec valgrind --tool=callgrind --demangle=no --callgrind-out-file="$work/callgrind.out.$1" \
    "$products/netactivity" "${@:2}"
}

(traced watch watch >"$work/watch.out" 2>/dev/null) &
watch=$!
pids+=("$watch")
within_a_minute grep -q "idle" "$work/watch.out"
id=$( (traced begin begin --label sync --timeout 600 2>/dev/null) )
within_a_minute grep -q "active" "$work/watch.out"
(traced end end "$id" 2>/dev/null)
(traced run run --label fetch -- true 2>/dev/null)
within_a_minute eval "[ \$(grep -c idle '$work/watch.out') -ge 2 ]"
# A panel's watch wakes once more, idle, when its last call's reply deadline (the library's 5 s) passes and the
# loop finds nothing overdue; that code belongs with the rest, or its scattered pages stay resident all day.
sleep 6
kill -TERM "$watch"
wait "$watch" || true

write_link_order netactivity Sources/netactivity/link-order.txt watch
