#!/usr/bin/env bash
# Shows netactivity's desktop notifications in a real notification server, dunst, on a virtual screen: the one of
# `netactivity run --notify` for a failed command, and the one of `netactivity-tray --notify-after 0` for an
# activity that ended. For each, the Notify call as dbus-monitor sees it carries the expected summary, body and
# urgency, and the notification is drawn (pixels changed against a shot from before).
#
# Usage: notifications.sh PRODUCTS [SHOTS]
#   SHOTS  a folder for a picture of the notification (docs/ in the README)
# Prints "PASS notifications" and exits 0 when both were seen, exits 1 naming what was not.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/screen.sh"

if [ "${1:-}" = --inside ]; then
  products=$2 work=$3
  cd "$work"
  trap 'for pid in $(jobs -p); do kill -KILL "$pid" 2>/dev/null || true; done' EXIT
  fail() { echo "FAIL (notifications): $*" >&2; for log in "$work"/*.log; do echo "--- $log" >&2; tail -20 "$log" >&2; done; exit 1; }
  mkdir -p "$XDG_CONFIG_HOME/dunst"
  cat >"$XDG_CONFIG_HOME/dunst/dunstrc" <<'CONF'
[global]
    origin = top-right
    offset = 10x10
    width = 420
    font = DejaVu Sans 11
    frame_width = 2
[urgency_normal]
    background = "#303030"
    foreground = "#ffffff"
    timeout = 0
[urgency_critical]
    background = "#b71c1c"
    foreground = "#ffffff"
    frame_color = "#ffffff"
    timeout = 0
CONF
  start_dunst_and_service "$products" || fail "dunst and the service did not both come up"
  within 10 screen_still
  shot before.miff
  drawn() { [ -n "$(changed_box before.miff 800x400+0+0)" ]; }

  # A command that fails: a critical notification, which names it, its time and its status.
  status=0
  "$products/netactivity" run --notify --label "nightly sync" -- sh -c 'exit 3' || status=$?
  [ "$status" = 3 ] || fail "run gave status $status, not the command's 3"
  notified() { grep -q "$1" monitor.log; }
  within 10 notified '"nightly sync failed"' || fail "no Notify call for the failed command: $(cat monitor.log)"
  grep -A12 '"nightly sync failed"' monitor.log | grep -q 'sh -c exit 3 ran for .*, exit status 3' \
    || fail "the body does not say what ran and how it ended: $(cat monitor.log)"
  grep -A14 '"nightly sync failed"' monitor.log | grep -q 'byte 2' || fail "the failure is not critical"
  within 10 drawn || fail "dunst drew no notification"
  within 5 screen_still
  echo "run --notify: shown, $(changed_box before.miff 800x400+0+0)"
  shot run.miff

  # The tray: every activity announced when it ends (how long one must last is the tray's own tests' business,
  # on a clock they move).
  "$products/netactivity-tray" --notify-after 0 2>tray.log &
  tray_pid=$!
  dunstctl close-all
  within 10 screen_still
  shot before.miff
  id=$("$products/netactivity" begin --label backup --timeout 600)
  # The tray must have seen the activity before it ends: its item's tooltip, served on one of the tray's
  # connections, names it.
  tray_shows() {
    local name
    for name in $(busctl --user list --no-legend 2>/dev/null | awk -v pid="$tray_pid" '$1 ~ /^:/ && $2 == pid {print $1}'); do
      gdbus call --session --dest "$name" --object-path /StatusNotifierItem \
        --method org.freedesktop.DBus.Properties.Get org.kde.StatusNotifierItem ToolTip 2>/dev/null \
        | grep -q "$1" && return 0
    done
    return 1
  }
  within 10 tray_shows backup || fail "the tray never showed the activity"
  "$products/netactivity" end "$id"
  within 10 notified '"backup finished after ' || fail "no Notify call from the tray: $(cat monitor.log)"
  within 10 drawn || fail "dunst drew no notification for the tray"
  within 5 screen_still
  echo "tray --notify-after: shown, $(changed_box before.miff 800x400+0+0)"
  convert run.miff -crop 460x90+340+0 +repage notification.png
  echo "PASS notifications"
  exit 0
fi

products=$(cd "$1" && pwd)
shots=${2:+$(mkdir -p "$2" && cd "$2" && pwd)}
command -v dunst >/dev/null || { echo "missing dunst (Tests/install-tools.sh installs it)" >&2; exit 1; }
open_screen 800x400x24
status=0
exec_session "$here/notifications.sh" --inside "$products" || status=$?
if [ -n "$shots" ] && [ -f "$work/notification.png" ]; then
  cp "$work/notification.png" "$shots/"
  echo "saved $shots/notification.png"
fi
exit "$status"
