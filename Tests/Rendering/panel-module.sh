#!/usr/bin/env bash
# Runs the README's polybar module or i3blocks block, verbatim, in the real program, with the real netactivityd on a
# private session bus, and checks that it shows the count while an activity is active and hides when idle: polybar
# on a virtual screen (by its pixels, against a shot from before anything was active), i3blocks by the i3bar
# protocol it prints.
#
# Usage: panel-module.sh polybar|i3blocks PRODUCTS [SHOTS]
# Prints "PASS MODULE" and exits 0 when the module behaved, exits 1 naming what it did not do.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/screen.sh"

# The first code block after the README's heading for MODULE.
readme_block() {
  awk -v heading="### $1" '$0 == heading { section = 1 } section && /^```/ && !inside { inside = 1; next }
                          inside && /^```/ { exit } inside { print }' "$here/../../README.md"
}

if [ "${1:-}" = --inside ]; then
  module=$2 products=$3 work=$5
  cd "$work"
  trap 'for pid in $(jobs -p); do kill -KILL "$pid" 2>/dev/null || true; done' EXIT
  fail() { echo "FAIL ($module): $*" >&2; for log in "$work"/*.log; do echo "--- $log" >&2; tail -8 "$log" >&2; done; exit 1; }
  mkdir -p bin && ln -sf "$products/netactivity" bin/netactivity
  export PATH="$work/bin:$PATH"
  "$products/netactivityd" --show-delay 0 --hide-delay 0 --min-visible 0 2>netactivityd.log &
  within 10 "$products/netactivity" status >/dev/null || fail "the service did not start"
  block=$(readme_block "$module")
  [ -n "$block" ] || fail "no $module block in the README"

  case $module in
    polybar)
      {
        echo "[bar/top]"
        echo "width = 100%"
        echo "height = 32"
        echo "background = #303030"
        echo "foreground = #ffffff"
        echo "font-0 = DejaVu Sans:size=14;3"
        echo "modules-left = netactivity"
        echo
        echo "$block"
      } >polybar.ini
      polybar -c polybar.ini top >polybar.log 2>&1 &
      bar_drawn() { drawn_at 400 16; }
      within 20 bar_drawn || fail "polybar did not draw its bar"
      within 10 screen_still
      shot before.miff
      id=$("$products/netactivity" begin --label mail --timeout 600)
      shown() { [ -n "$(changed_box before.miff 800x32+0+0)" ]; }
      within 10 shown || fail "the module did not show while active"
      echo "shown while active: $(changed_box before.miff 800x32+0+0)"
      "$products/netactivity" end "$id"
      hidden() { [ -z "$(changed_box before.miff 800x32+0+0)" ]; }
      within 10 hidden || fail "the module did not hide when idle"
      echo "hidden when idle"
      ;;
    i3blocks)
      printf '%s\n' "$block" >i3blocks.conf
      mkfifo bar
      i3blocks -c i3blocks.conf >bar 2>i3blocks.log &
      exec 3<bar
      # Reads the i3bar protocol until a line matches the pattern, for at most $1 seconds.
      await_line() {
        local deadline=$((SECONDS + $1)) line
        while [ "$SECONDS" -lt "$deadline" ]; do
          IFS= read -r -t 1 line <&3 || continue
          echo "$line" >>bar.log
          [[ $line =~ $2 ]] && return 0
        done
        return 1
      }
      await_line 10 '^\[|^,\[' || fail "i3blocks printed no status line"
      id=$("$products/netactivity" begin --label mail --timeout 600)
      await_line 10 '"full_text":"⇅ 1"' || fail "the block did not show ⇅ 1 while active: $(tail -3 bar.log)"
      echo "shown while active"
      "$products/netactivity" end "$id"
      # Hidden: the block is left out of the status line, or given an empty text.
      await_line 10 '^,?\[\]$|"full_text":""' || fail "the block did not hide when idle: $(tail -3 bar.log)"
      ! grep -q "pipe closed\|error" i3blocks.log || fail "i3blocks complained: $(cat i3blocks.log)"
      echo "hidden when idle"
      ;;
  esac
  echo "PASS $module"
  exit 0
fi

module=$1
products=$(cd "$2" && pwd)
command -v "$module" >/dev/null || { echo "missing $module (Tests/install-tools.sh installs it)" >&2; exit 1; }
open_screen 800x200x24
exec_session "$here/panel-module.sh" --inside "$module" "$products" ""
