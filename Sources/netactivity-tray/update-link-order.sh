#!/usr/bin/env bash
# Regenerates link-order.txt: the functions netactivity-tray runs as it starts, joins the tray, is read by a host
# (its properties and its menu) and leaves again, in the order the linker should place them (lld's
# --symbol-ordering-file). Packed together they fill few pages, so the tray, which runs all day, keeps less of its
# binary in memory; see docs/performance.md. Run it after changing what the tray does on these paths; functions that
# no longer exist are ignored by the linker, so a stale list only costs memory.
# Needs valgrind. Usage: bash Sources/netactivity-tray/update-link-order.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
programs=(netactivity-tray netactivity)
source Sources/netactivity/link-order-session.sh

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

write_link_order netactivity-tray Sources/netactivity-tray/link-order.txt
