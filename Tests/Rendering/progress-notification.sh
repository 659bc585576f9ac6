#!/usr/bin/env bash
# `netactivity-tray --progress-notifications` in dunst on a virtual screen: a `netactivity run` at 45 % is one
# notification whose bar dunst draws (its highlight colour, #3584e4, fills about 45 % of the bar), the Notify calls
# carry the hints `value`, `x-canonical-private-synchronous` and `x-dunst-stack-tag` and the Stop action, and after
# the run ends the same bubble says it finished.
#
# Usage: progress-notification.sh PRODUCTS [SHOTS]
# Prints "PASS progress notification" and exits 0 when everything was seen, exits 1 naming what was not.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/screen.sh"
region=800x400+0+0

if [ "${1:-}" = --inside ]; then
  products=$2 shots=$3 work=$4
  export PATH="$products:$PATH"
  cd "$work"
  trap 'for pid in $(jobs -p); do kill -KILL "$pid" 2>/dev/null || true; done' EXIT
  fail() { echo "FAIL (progress notification): $*" >&2; for log in "$work"/*.log; do echo "--- $log" >&2; tail -20 "$log" >&2; done; exit 1; }
  mkdir -p "$XDG_CONFIG_HOME/dunst"
  cat >"$XDG_CONFIG_HOME/dunst/dunstrc" <<'CONF'
[global]
    origin = top-right
    offset = 10x10
    width = 420
    font = DejaVu Sans 11
    frame_width = 2
    progress_bar = true
    progress_bar_height = 12
    progress_bar_min_width = 300
    progress_bar_max_width = 300
[urgency_low]
    background = "#303030"
    foreground = "#ffffff"
    highlight = "#3584e4"
    timeout = 0
[urgency_normal]
    background = "#303030"
    foreground = "#ffffff"
    highlight = "#3584e4"
    timeout = 0
CONF
  start_dunst_and_service "$products" || fail "dunst and the service did not both come up"
  within 10 screen_still
  shot before.miff
  "$products/netactivity-tray" --progress-notifications --log-level debug 2>tray.log &
  "$products/netactivity" run --label "backup" -- /bin/sh -c '
    netactivity progress "$NETACTIVITY_ID" 45 && exec sleep 600' >run.log 2>&1 &
  run_pid=$!
  notified() { grep -q "$1" monitor.log; }
  within 10 notified '"value"' || fail "no Notify call with a value: $(cat monitor.log)"
  grep -A3 '"value"' monitor.log | grep -q 'int32 45' || fail "the value is not 45: $(cat monitor.log)"
  grep -q '"x-dunst-stack-tag"' monitor.log && grep -q '"x-canonical-private-synchronous"' monitor.log \
    || fail "the notification has no tag to be replaced by"
  grep -q '"stop"' monitor.log || fail "the notification offers no Stop"
  bar_drawn() {
    shot bubble.miff
    bar=$(convert bubble.miff -crop "$region" +repage -fuzz 8% -fill black +opaque "#3584e4" -fill white \
      -opaque "#3584e4" -colorspace gray -threshold 50% -define connected-components:verbose=true \
      -connected-components 8 null: 2>/dev/null \
      | awk '/gray\(255\)|gray\(100%\)|white/ { if ($4 > best) { best = $4; box = $2 } } END { print box }')
    [ -n "$bar" ]
  }
  within 10 bar_drawn || fail "dunst drew no progress bar"
  within 5 screen_still
  bar_drawn || fail "the bar did not stay"
  bar_width=${bar%%x*}
  # The bar is 300 pixels wide, less its frame: 45 % is about 135.
  [ "$bar_width" -ge 115 ] && [ "$bar_width" -le 155 ] || fail "the bar is filled $bar_width of 300 pixels, not about 45 %"
  echo "dunst's bar: filled $bar_width of 300 pixels"
  convert bubble.miff -crop 460x110+340+0 +repage progress-notification.png
  kill -TERM "$run_pid"
  within 10 notified '"backup finished after ' || fail "no finished line: $(cat monitor.log)"
  finished_in_place() { ! bar_drawn; }
  within 10 finished_in_place || fail "the bar stayed after the end"
  count=$(dunstctl count displayed)
  [ "$count" = 1 ] || fail "dunst shows $count notifications, not the one bubble"
  echo "the bubble says the run finished, in place"
  [ -z "$shots" ] || cp progress-notification.png "$shots/"
  echo "PASS progress notification"
  exit 0
fi

products=$(cd "$1" && pwd)
shots=${2:+$(mkdir -p "$2" && cd "$2" && pwd)}
open_screen 800x400x24
exec_session "$here/progress-notification.sh" --inside "$products" "${shots:-}"
