#!/usr/bin/env bash
# Shows the tray's "Recent" rows in a real StatusNotifierItem host on a virtual screen and checks them by the screen's
# pixels: with the tray kept in the panel (--idle show), a right click opens the idle menu; five backups then run to
# their end with `netactivity run`, the menu is opened again, and it is taller by at least five rows (Recent, the
# five runs, Clear recent). Everything runs on its own virtual screen and private buses; each step waits with a
# deadline.
#
# Usage: recent-menu.sh HOST PRODUCTS [SHOTS]   (HOST: one of Tests/Rendering/hosts/*.sh that draws menus as
#                                               lists: gtk-sni-tray, xfce, lxqt)
# Prints "PASS HOST" and exits 0 when everything was seen, exits 1 naming what was not.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/screen.sh"

if [ "${1:-}" = --inside ]; then
  shift
  host=$1 products=$2 shots=$3 work=$4
  host_active_check() { true; }
  source "$here/hosts/$host.sh"
  cd "$work"
  trap 'host_stop 2>/dev/null || true; for pid in $(jobs -p); do kill -KILL "$pid" 2>/dev/null || true; done' EXIT
  fail() {
    echo "FAIL ($host): $*" >&2
    for log in "$work"/*.log; do echo "--- $log" >&2; tail -15 "$log" >&2; done
    exit 1
  }
  host_start
  within 90 host_ready || fail "the host's StatusNotifierWatcher did not come up with a host registered"
  within 30 screen_still || fail "the screen did not settle"
  shot before.miff
  dbus-monitor --session "path=/MenuBar" >monitor.log 2>&1 &
  "$products/netactivityd" --show-delay 0 --hide-delay 0 --min-visible 0 2>netactivityd.log &
  "$products/netactivity-tray" --idle show --log-level debug 2>tray.log &
  within 10 "$products/netactivity" status >/dev/null || fail "the service did not start"
  icon_shown() { box=$(changed_box before.miff "$panel_region"); [ -n "$box" ]; }
  within 20 icon_shown || fail "no icon appeared in the panel ($panel_region)"
  within 30 screen_still || fail "the screen did not settle with the icon shown"
  read -r icon_w icon_h icon_x icon_y <<<"$box"
  shot idle.miff

  # Opens the menu; sets menu_h to its height on the screen, compared with idle.miff.
  open_menu() {
    xdotool mousemove $((icon_x + icon_w / 2)) $((icon_y + icon_h / 2)) click 3
    menu_drawn() {
      local menu
      menu=$(changed_box idle.miff "$menu_region")
      [ -n "$menu" ] || return 1
      read -r _ menu_h _ _ <<<"$menu"
    }
    within 15 menu_drawn && within 30 screen_still && menu_drawn
  }
  close_menu() {
    xdotool key Escape
    xdotool mousemove $idle_spot
    menu_gone() { [ -z "$(changed_box idle.miff "$menu_region")" ]; }
    within 15 menu_gone || fail "the menu did not close"
  }

  open_menu || fail "the idle menu was not drawn"
  idle_h=$menu_h
  echo "idle menu drawn: ${idle_h} px high"
  close_menu
  for n in 1 2 3 4 5; do
    "$products/netactivity" run --label "backup $n" -- true || fail "backup $n did not run"
  done
  recent_listed() { "$products/netactivity" history | grep -q "backup 5"; }
  within 10 recent_listed || fail "the history did not list the backups: $("$products/netactivity" history)"
  layout() {
    gdbus call --session --dest "$(grep -o 'org.kde.StatusNotifierItem-[0-9-]*' tray.log | head -1)" \
      --object-path /MenuBar --method com.canonical.dbusmenu.GetLayout 0 'int32 -1' '[]' 2>&1
  }
  menu_has_recent() { layout | grep -q "'backup 5 — "; }
  within 10 menu_has_recent || fail "the tray's menu has no Recent rows: $(layout)"
  open_menu || fail "the menu with the Recent rows was not drawn"
  echo "menu with Recent drawn: ${menu_h} px high"
  [ -n "$shots" ] && shot "$shots/tray-recent-$host.png"
  rows=$(( (menu_h - idle_h) ))
  # A row of a GTK or Qt menu is at least 17 px high at the default font: seven rows (Recent, five, Clear recent)
  # and a separator add over 100 px.
  [ "$rows" -ge 100 ] || fail "the menu grew by $rows px with the Recent rows, not 100 or more"
  echo "Recent rows drawn: the menu grew by $rows px"
  echo "PASS $host"
  exit 0
fi

host=$1
products=$(cd "$2" && pwd)
shots=${3:-}
[ -z "$shots" ] || shots=$(cd "$shots" && pwd)
source "$here/hosts/$host.sh"
open_screen "$screen_size"
exec_session "$here/recent-menu.sh" --inside "$host" "$products" "$shots"
