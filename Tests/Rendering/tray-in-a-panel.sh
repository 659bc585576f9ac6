#!/usr/bin/env bash
# Renders netactivity-tray in a real StatusNotifierItem host and checks, by pixel colour, that the icon is drawn
# while an activity is active and gone after it ends. Everything runs here and nowhere else: a virtual X screen
# (Xvfb), a private bus with the real netactivityd, gtk-sni-tray-standalone as the panel (with its own watcher),
# and the netactivity command to begin and end the activity. Each step waits for what it expects with a deadline.
#
# Usage: tray-in-a-panel.sh PRODUCTS [SCREENSHOT]
#   PRODUCTS    the folder with netactivityd, netactivity and netactivity-tray (e.g. .build/debug)
#   SCREENSHOT  where to save a picture of the panel with the icon and its tooltip (docs/tray.png in the README)
# Exits 0 when the icon showed and went away as it should, 1 otherwise.
set -euo pipefail
products=$(cd "$1" && pwd)
screenshot=${2:-}
for tool in Xvfb import convert xdotool gtk-sni-tray-standalone dbus-daemon; do
  command -v "$tool" >/dev/null || { echo "missing $tool (.ci/run installs it)" >&2; exit 1; }
done

work=$(mktemp -d /tmp/netactivity-render.XXXXXX)
pids=()
# SIGKILL: nothing here has anything to save, and a test runner may start this script with SIGTERM blocked, which
# its children inherit.
cleanup() {
  for pid in "${pids[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; for log in "$work"/*.log; do echo "--- $log" >&2; tail -5 "$log" >&2; done; exit 1; }

# The panel's background and the icon's blue (IndicatorLook.active), as ImageMagick names pixels.
panel_colour="#303030"
icon_colour="#1E88E5"
panel_height=32

# How many pixels of the panel's strip have the icon's colour now.
icon_pixels() {
  import -window root "$work/screen.png" 2>/dev/null
  convert "$work/screen.png" -crop "480x${panel_height}+0+0" +repage txt:- | grep -ci "$icon_colour" || true
}

# Whether the panel's strip is empty: its own colour only, no icon of any look.
panel_empty() {
  import -window root "$work/screen.png" 2>/dev/null
  [ "$(convert "$work/screen.png" -crop "480x${panel_height}+0+0" +repage -format %k info:)" -eq 1 ]
}

# Runs "$@" until it succeeds, for at most $1 seconds.
within() {
  local seconds=$1; shift
  local deadline=$((SECONDS + seconds))
  until "$@"; do
    [ "$SECONDS" -lt "$deadline" ] || return 1
    sleep 0.1
  done
}

# A virtual screen on the first free display; Xvfb writes its number once it accepts clients.
Xvfb -displayfd 3 -screen 0 480x120x24 -nolisten tcp 3>"$work/display" 2>"$work/xvfb.log" &
pids+=($!)
within 10 test -s "$work/display" || fail "Xvfb did not start"
export DISPLAY=":$(cat "$work/display")"

# A private bus that starts nothing by itself: every program here is started by this script.
cat >"$work/bus.conf" <<CONF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path=$work/bus</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/><allow own="*"/><allow send_destination="*"/><allow receive_sender="*"/>
  </policy>
</busconfig>
CONF
dbus-daemon --config-file="$work/bus.conf" --nofork --print-address=4 4>"$work/address" 2>"$work/bus.log" &
pids+=($!)
within 10 test -s "$work/address" || fail "dbus-daemon did not start"
export DBUS_SESSION_BUS_ADDRESS=$(head -1 "$work/address")
# GTK's accessibility bridge and settings would look for services of the desktop's own.
export NO_AT_BRIDGE=1 GSETTINGS_BACKEND=memory HOME=$work XDG_RUNTIME_DIR=$work

"$products/netactivityd" --show-delay 0 --hide-delay 0 --min-visible 0 2>"$work/netactivityd.log" &
pids+=($!)
"$products/netactivity-tray" 2>"$work/tray.log" &
pids+=($!)

# gtk-sni-tray's host registers with its own watcher as soon as the watcher owns its name, which may be before the
# watcher serves; the host then exits. Such a panel is started again, as a session would.
start_panel() {
  gtk-sni-tray-standalone --watcher --top --size "$panel_height" --color "$panel_colour" >>"$work/panel.log" 2>&1 &
  panel_pid=$!
  pids+=("$panel_pid")
}
panel_starts=0
panel_shows() {
  if ! kill -0 "$panel_pid" 2>/dev/null; then
    [ "$panel_starts" -lt 5 ] || fail "the panel exited $panel_starts times"
    panel_starts=$((panel_starts + 1))
    start_panel
  fi
  import -window root "$work/screen.png" 2>/dev/null
  convert "$work/screen.png" -crop 1x1+400+4 txt:- | grep -qi "$panel_colour"
}
start_panel
within 20 panel_shows || fail "the panel did not appear"
panel_empty || fail "an icon shows before anything is active"
echo "panel up, no icon while idle"

id=$(within 10 "$products/netactivity" begin --label "mail" --timeout 600) || fail "could not begin an activity"
"$products/netactivity" begin --label "backup" --timeout 600 >/dev/null
icon_drawn() { [ "$(icon_pixels)" -ge 50 ]; }
within 10 icon_drawn || fail "the icon did not appear while active ($(icon_pixels) blue pixels)"
echo "icon drawn while active: $(icon_pixels) pixels of $icon_colour"

if [ -n "$screenshot" ]; then
  # Hovering the icon shows its tooltip, which names the activities.
  xdotool mousemove 12 16
  tooltip_shows() {
    import -window root "$work/screen.png" 2>/dev/null
    [ "$(convert "$work/screen.png" -crop "480x80+0+$((panel_height + 2))" +repage -format %k info:)" -gt 1 ]
  }
  within 10 tooltip_shows || fail "the tooltip did not show"
  convert "$work/screen.png" -crop "300x80+0+0" +repage "$screenshot"
  echo "saved $screenshot"
  xdotool mousemove 400 100
fi

"$products/netactivity" end "$id"
# One activity is left: the icon stays.
[ "$(icon_pixels)" -ge 50 ] || fail "the icon went away while an activity was still active"
"$products/netactivity" reset >/dev/null
within 10 panel_empty || fail "an icon stayed after every activity ended ($(icon_pixels) blue pixels)"
echo "icon gone after the activities ended"
