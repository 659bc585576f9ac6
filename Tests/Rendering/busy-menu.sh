#!/usr/bin/env bash
# Measures what a busy menu costs: 50 activities each reporting progress 10 times a second, in a real host on a
# virtual screen, with the tray's menu open and then closed; prints the CPU of the host (its processes) and of the
# tray in each half. A measurement for docs/performance.md, not a test: it asserts nothing about time.
#
# Usage: busy-menu.sh HOST PRODUCTS [SECONDS]   (HOST: gtk-sni-tray, xfce, lxqt or plasma; SECONDS per half, 10)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/screen.sh"

if [ "${1:-}" = --inside ]; then
  shift
  host=$1 products=$2 seconds=$3 work=$4
  host_active_check() { true; }
  source "$here/hosts/$host.sh"
  cd "$work"
  trap 'host_stop 2>/dev/null || true; for pid in $(jobs -p); do kill -KILL "$pid" 2>/dev/null || true; done' EXIT
  host_start
  within 90 host_ready || { echo "the host did not come up" >&2; exit 1; }
  within 30 screen_still
  shot before.miff
  dbus-monitor --session "path=/MenuBar" >monitor.log 2>&1 &
  "$products/netactivityd" --show-delay 0 --hide-delay 0 --min-visible 0 2>netactivityd.log &
  "$products/netactivity-tray" 2>tray.log &
  tray_pid=$!
  within 10 "$products/netactivity" status >/dev/null
  /usr/bin/python3 - "$((seconds * 2 + 30))" >load.log 2>&1 <<'PY' &
import dbus, sys, time
service = dbus.Interface(dbus.SessionBus().get_object("org.example.NetworkActivity", "/org/example/NetworkActivity"),
                         "org.example.NetworkActivity")
ids = [service.BeginWithTimeout("download %d of a long list of files" % n, dbus.UInt32(600)) for n in range(1, 51)]
start, rounds = time.time(), 0
while time.time() - start < float(sys.argv[1]):
    rounds += 1
    for id in ids:
        service.SetTransfer(id, dbus.UInt64(rounds * 300000), dbus.UInt64(10**9))
    time.sleep(max(0, start + rounds * 0.1 - time.time()))
PY
  icon_shown() { box=$(changed_box before.miff "$panel_region"); [ -n "$box" ]; }
  within 20 icon_shown || { echo "no icon" >&2; exit 1; }
  read -r icon_w icon_h icon_x icon_y <<<"$box"
  # The host's processes: the panel and what it started (xfce's plugin wrapper).
  host_ticks() {
    local total=0 pid
    for pid in $panel_pid $(pgrep -P "$panel_pid" || true); do
      total=$((total + $(awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null || echo 0)))
    done
    echo "$total"
  }
  tray_ticks() { awk '{print $14 + $15}' "/proc/$tray_pid/stat"; }
  measure() {
    local host_before tray_before layouts_before
    host_before=$(host_ticks) tray_before=$(tray_ticks) layouts_before=$(grep -c "member=GetLayout" monitor.log || true)
    sleep "$seconds"
    local hz; hz=$(getconf CLK_TCK)
    awk -v what="$1" -v host=$(( $(host_ticks) - host_before )) -v tray=$(( $(tray_ticks) - tray_before )) \
        -v layouts=$(( $(grep -c "member=GetLayout" monitor.log || true) - layouts_before )) -v hz="$hz" \
        -v seconds="$seconds" 'BEGIN { printf "%s: host %.1f %% CPU, tray %.1f %% CPU, GetLayout %d in %d s\n",
          what, host * 100 / hz / seconds, tray * 100 / hz / seconds, layouts, seconds }'
  }
  xdotool mousemove $((icon_x + icon_w / 2)) $((icon_y + icon_h / 2)) click 3
  menu_shown() { [ -n "$(changed_box before.miff "$menu_region")" ]; }
  within 15 menu_shown || { echo "no menu" >&2; exit 1; }
  measure "menu open"
  xdotool key Escape
  xdotool mousemove $idle_spot
  sleep 1
  measure "menu closed"
  exit 0
fi

host=$1
products=$(cd "$2" && pwd)
seconds=${3:-10}
source "$here/hosts/$host.sh"
open_screen "$screen_size"
exec_session "$here/busy-menu.sh" --inside "$host" "$products" "$seconds"
