#!/usr/bin/env bash
# Regenerates link-order.txt: the functions netactivity-tray runs as it starts, joins the tray, is read by a host
# (its properties and its menu) and leaves again, in the order the linker should place them (lld's
# --symbol-ordering-file). Packed together they fill few pages, so the tray, which runs all day, keeps less of its
# binary in memory; see docs/performance.md. Run it after changing what the tray does on these paths; functions that
# no longer exist are ignored by the linker, so a stale list only costs memory.
# Needs valgrind. Usage: bash Sources/netactivity-tray/update-link-order.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
for product in netactivity-tray netactivityd netactivity; do swift build -c release --product "$product" >&2; done
products=.build/release
work=$(mktemp -d)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true; rm -rf "$work"' EXIT

# Waits up to 60 s (the tray runs slowly under callgrind) until "$@" succeeds.
within_a_minute() {
  for _ in $(seq 600); do "$@" >/dev/null 2>&1 && return 0; sleep 0.1; done
  echo "timed out: $*" >&2
  return 1
}
name_has_owner() {
  [ "$(gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
        --method org.freedesktop.DBus.NameHasOwner "$1")" = "(true,)" ]
}

dbus-daemon --session --address="unix:path=$work/bus" --nofork --print-address=3 3>"$work/address" 2>/dev/null &
pids+=($!)
within_a_minute test -s "$work/address"
export DBUS_SESSION_BUS_ADDRESS
DBUS_SESSION_BUS_ADDRESS=$(head -1 "$work/address")
"$products/netactivityd" --show-delay 0 --hide-delay 0 --min-visible 0 2>/dev/null &
pids+=($!)
within_a_minute name_has_owner org.example.NetworkActivity

valgrind --tool=callgrind --demangle=no --callgrind-out-file="$work/callgrind.out" \
  "$products/netactivity-tray" --log-level debug 2>"$work/tray.log" &
tray=$!
pids+=("$tray")
item="org.kde.StatusNotifierItem-$tray-1"
for cycle in 1 2 3; do
  id=$("$products/netactivity" begin --label "cycle $cycle" --timeout 600)
  within_a_minute name_has_owner "$item"
  gdbus call --session --dest "$item" --object-path /StatusNotifierItem \
    --method org.freedesktop.DBus.Properties.GetAll org.kde.StatusNotifierItem >/dev/null
  gdbus call --session --dest "$item" --object-path /MenuBar --method com.canonical.dbusmenu.AboutToShow 0 >/dev/null
  gdbus call --session --dest "$item" --object-path /MenuBar --method com.canonical.dbusmenu.GetLayout \
    -- 0 -1 [] >/dev/null
  "$products/netactivity" end "$id"
  within_a_minute eval "! name_has_owner $item"
done
kill -TERM "$tray"
wait "$tray" || true

callgrind_annotate --inclusive=no --threshold=100 "$work"/callgrind.out* \
  | sed -nE 's/^ *[0-9,]+ \([^)]*\)  [^ ]*:([^ ]+) \[.*netactivity-tray\]$/\1/p' \
  | grep -v "'" | sort -u >Sources/netactivity-tray/link-order.txt
wc -l Sources/netactivity-tray/link-order.txt >&2
