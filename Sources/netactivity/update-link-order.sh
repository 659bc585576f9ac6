#!/usr/bin/env bash
# Regenerates link-order.txt: the functions the plain forms of netactivity run (begin, end, run -- true, and watch
# until it has printed a change), in the order the linker should place them (lld's --symbol-ordering-file). Packed
# together they fill few pages, so a panel's `watch`, which runs all day, keeps less of the binary in memory; see
# docs/performance.md. Run it after changing what these forms do; functions that no longer exist are ignored by the
# linker, so a stale list only costs memory. Needs valgrind. Usage: bash Sources/netactivity/update-link-order.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
for product in netactivity netactivityd; do swift build -c release --product "$product" >&2; done
products=.build/release
work=$(mktemp -d)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true; rm -rf "$work"' EXIT

# Waits up to 60 s (programs run slowly under callgrind) until "$@" succeeds.
within_a_minute() {
  for _ in $(seq 600); do "$@" >/dev/null 2>&1 && return 0; sleep 0.1; done
  echo "timed out: $*" >&2
  return 1
}
name_has_owner() {
  [ "$(gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
        --method org.freedesktop.DBus.NameHasOwner "$1")" = "(true,)" ]
}
# Runs netactivity under callgrind, as this process (so that a background one's $! is callgrind's).
traced() {
  exec valgrind --tool=callgrind --demangle=no --callgrind-out-file="$work/callgrind.out.$1" \
    "$products/netactivity" "${@:2}"
}

dbus-daemon --session --address="unix:path=$work/bus" --nofork --print-address=3 3>"$work/address" 2>/dev/null &
pids+=($!)
within_a_minute test -s "$work/address"
export DBUS_SESSION_BUS_ADDRESS
DBUS_SESSION_BUS_ADDRESS=$(head -1 "$work/address")
"$products/netactivityd" --show-delay 0 --hide-delay 0 --min-visible 0 2>/dev/null &
pids+=($!)
within_a_minute name_has_owner org.example.NetworkActivity

(traced watch watch >"$work/watch.out" 2>/dev/null) &
watch=$!
pids+=("$watch")
within_a_minute grep -q "idle" "$work/watch.out"
id=$( (traced begin begin --label sync --timeout 600 2>/dev/null) )
within_a_minute grep -q "active" "$work/watch.out"
(traced end end "$id" 2>/dev/null)
(traced run run --label fetch -- true 2>/dev/null)
within_a_minute eval "[ \$(grep -c idle '$work/watch.out') -ge 2 ]"
kill -TERM "$watch"
wait "$watch" || true

for out in "$work"/callgrind.out.*; do callgrind_annotate --inclusive=no --threshold=100 "$out" 2>/dev/null; done \
  | sed -nE 's/^ *[0-9,]+ \([^)]*\)  [^ ]*:([^ ]+) \[.*netactivity\]$/\1/p' \
  | grep -v "'" | sort -u >Sources/netactivity/link-order.txt
wc -l Sources/netactivity/link-order.txt >&2
