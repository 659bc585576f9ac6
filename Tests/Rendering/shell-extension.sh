#!/usr/bin/env bash
# The project's GNOME Shell extension through a person's day, in a real GNOME Shell, checked by the screen's pixels
# and the bus:
#   - enabled (state 1, and with no copy in the user's folder when the package installed it), the indicator appears
#     for a `netactivity run` labelled backup at 45 % and a timed "mail";
#   - its menu (a click on X11; on Wayland, which has no pointer here, opened by the test's own probe extension,
#     shell-probe/) has both rows with their accessible names, the backup's bar filled about 45 % from the start of
#     its track, and a Stop that makes the run exit 143;
#   - the service restarts and the extension follows; the indicator leaves when the activities end;
#   - a day: 20 disables and enables, as the lock screen does, then an activity whose progress changes ten times,
#     each shown, then its end;
#   - netactivity-tray stays out of the tray while the extension runs and comes back when it is disabled;
#   - a logout: the Shell and the service stopped together;
#   - and the Shell's log has no line naming the extension, no JS ERROR and no CRITICAL.
# Each step waits for what it expects with a deadline.
#
# Usage: shell-extension.sh SESSION PRODUCTS EXTENSION [SHOTS]
# In Debian's newer GNOMEs: debian-root.sh test NAME PRODUCTS shell-extension.sh SESSION PRODUCTS EXTENSION SHOTS,
# with the release build, and test-overlay for a package.
#   SESSION      x11 or wayland (headless, with a virtual monitor)
#   PRODUCTS     the folder with netactivityd, netactivity and netactivity-tray
#   EXTENSION    a build's zip (packaging/build-shell-extension.sh), installed with `gnome-extensions install`, or
#                the Debian package (packaging/build-deb.sh), installed with dpkg for every user of the machine
#   SHOTS        a folder for the pictures of the top bar and the open menu (docs/)
# Prints "PASS gnome-extension" and exits 0 when everything was seen, exits 1 naming what was not.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/screen.sh"
source "$here/shell-session.sh"

if [ "${1:-}" = --inside ]; then
  shift
  enter_shell_scene gnome-extension "$@"
  # The activities' program has a desktop file, as an installed application has: each row shows its green icon.
  mkdir -p "$XDG_DATA_HOME/applications" "$XDG_DATA_HOME/icons/hicolor/scalable/apps"
  printf '[Desktop Entry]\nType=Application\nName=Backup Tool\nIcon=netactivity-test-backup\nExec=true\n' \
    >"$XDG_DATA_HOME/applications/netactivity.desktop"
  printf '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><rect width="16" height="16" fill="#00ff00"/></svg>\n' \
    >"$XDG_DATA_HOME/icons/hicolor/scalable/apps/netactivity-test-backup.svg"
  if [[ "$extension" == *.deb ]]; then
    # As root on the (throwaway) machine: the package's extension is for every user, in /usr/share.
    dpkg -i "$extension" >dpkg.log 2>&1 || fail "dpkg did not install $extension: $(tail -5 dpkg.log)"
    [ -f "/usr/share/gnome-shell/extensions/$uuid/metadata.json" ] || fail "the package installed no extension"
  else
    gnome-extensions install --force "$extension" || fail "gnome-extensions did not install $extension"
    [ -f "$user_extensions/$uuid/metadata.json" ] || fail "the zip was installed elsewhere"
  fi
  install_probe
  "$products/netactivityd" --show-delay 0 --hide-delay 0 --min-visible 0 2>netactivityd.log &
  daemon_pid=$!
  # A fresh session: no extension enabled but the probe, the AppIndicator extension neither.
  start_shell "['netactivity-probe@example.org']"
  extension_owns_its_name() { name_owned org.example.NetworkActivity.ShellIndicator; }
  extensions() {
    gdbus call --session --dest org.gnome.Shell.Extensions --object-path /org/gnome/Shell/Extensions \
      --method "org.gnome.Shell.Extensions.$1" "$uuid"
  }
  extension_state() { extensions GetExtensionInfo | sed -n "s/.*'state': <\([0-9]*\)\(\.0\)\{0,1\}>.*/\1/p" || true; }
  within 120 shell_ready || fail "GNOME Shell did not come up"
  within 30 name_owned org.example.NetworkActivityProbe || fail "the test's probe extension did not start"
  echo "GNOME Shell $shell_version up ($session)"
  gnome-extensions enable "$uuid" || fail "gnome-extensions did not enable $uuid"
  within 20 extension_owns_its_name || fail "the extension did not start: $(extensions GetExtensionInfo)"
  state=$(extension_state)
  [ "$state" = 1 ] || fail "the extension's state is $state, not 1 (enabled): $(extensions GetExtensionInfo)"
  if [[ "$extension" == *.deb ]]; then
    [ ! -e "$user_extensions/$uuid" ] || fail "the extension runs from a copy in the user's folder"
    extensions GetExtensionInfo | grep -q "/usr/share/gnome-shell/extensions/$uuid" ||
      fail "the extension does not run from the package's folder: $(extensions GetExtensionInfo)"
  fi
  echo "extension enabled: state 1"
  within 30 screen_still || fail "the screen did not settle"
  shot before.miff
  # The tray, as a desktop's autostart would start it: it must stay out of the tray while the extension runs.
  "$products/netactivity-tray" --log-level debug 2>tray.log &
  tray_pid=$!

  within 10 "$products/netactivity" status >/dev/null || fail "the service did not start"
  "$products/netactivity" run --label "backup" -- /bin/sh -c '
    netactivity progress "$NETACTIVITY_ID" 45 && exec sleep 600' >run.log 2>&1 &
  run_pid=$!
  mail_id=$("$products/netactivity" begin --label "mail" --timeout 600)
  progress_reported() { "$products/netactivity" status --json | grep -q '"percent":45'; }
  within 10 progress_reported || fail "the backup's progress did not reach the service: $(cat run.log)"
  indicator_shown() { box=$(changed_box before.miff "$panel_region"); [ -n "$box" ]; }
  within 20 indicator_shown || fail "no indicator appeared in the top bar ($panel_region)"
  within 30 screen_still || fail "the screen did not settle with the indicator shown"
  indicator_shown || fail "the indicator did not stay"
  read -r icon_w icon_h icon_x icon_y <<<"$box"
  echo "indicator drawn: ${icon_w}x${icon_h} at $icon_x,$icon_y"
  describe | grep -q '"name":"Network activity, 45 %"' || fail "the indicator's accessible name: $(describe)"
  shot active.miff

  menu_open() { describe | grep -q '"open":true'; }
  if [ "$session" = x11 ]; then
    # GNOME 48 on X11 was seen to let every click pass, the button not even highlighted, when another run of this
    # test started beside it (in 5 of 14 runs two at a time; never alone), though the pointer was on the button: a
    # person would click again, and so does this test, twice; then it opens the menu as the probe does, saying so.
    clicked_open=
    for attempt in 1 2 3; do
      xdotool mousemove 640 400 mousemove $((icon_x + icon_w / 2)) $((icon_y + icon_h / 2)) click 1
      if within 3 menu_open; then clicked_open=1; break; fi
      echo "the menu did not open at click $attempt" >&2
    done
    if [ -z "$clicked_open" ]; then
      echo "GNOME Shell let three clicks on the indicator pass; opening its menu through the probe" >&2
      probe_says OpenMenu >/dev/null || fail "the probe did not open the menu"
    fi
  else
    probe_says OpenMenu >/dev/null || fail "the probe did not open the menu"
  fi
  within 10 menu_open || fail "the menu did not open: $(describe)"
  menu_shown() {
    local menu
    menu=$(changed_box active.miff "$menu_region")
    [ -n "$menu" ] || return 1
    read -r menu_w menu_h menu_x menu_y <<<"$menu"
    [ "$menu_h" -ge 80 ] && [ "$menu_w" -ge 200 ]
  }
  within 15 menu_shown || fail "no menu opened on a click at the indicator"
  within 30 screen_still || fail "the screen did not settle with the menu open"
  shot menu.miff
  echo "menu drawn: ${menu_w}x${menu_h} at $menu_x,$menu_y"
  # What a screen reader says of the menu: each row, the backup's bar and its Stop.
  menu_described=$(describe)
  # The mail's program has left by now: whether its app was learnt in time depends on the machine's speed.
  for spoken in '"kind":"row","name":"Backup Tool: backup, 45 %' '"kind":"row","name":"(Backup Tool: )?mail, ' \
                '"kind":"bar","name":"backup: 45 %","value":0.45' '"kind":"stop","name":"Stop backup"'; do
    grep -qE "$spoken" <<<"$menu_described" || fail "the menu has no $spoken: $menu_described"
  done
  echo "accessible names: the rows, the bar and Stop backup"
  region_x=${menu_region#*+}; region_x=${region_x%+*}; region_y=${menu_region##*+}
  # The bounding box (WxH+X+Y in the menu's region) of the largest patch of a colour.
  colour_box() {
    convert menu.miff -crop "$menu_region" +repage -fuzz "${2:-8%}" -fill black +opaque "$1" -fill white -opaque "$1" \
      -colorspace gray -threshold 50% -define connected-components:verbose=true -connected-components 8 null: \
      2>/dev/null | awk '/gray\(255\)|gray\(100%\)|white/ { if ($4 > best) { best = $4; box = $2 } } END { print box }'
  }
  # The bar's fill, in the Shell's accent colour (Adwaita's blue unless the person chose another).
  bar=$(colour_box "#3584e4" 12%)
  [ -n "$bar" ] || fail "the menu has no progress bar's fill"
  bar_size=${bar%%+*} bar_offset=${bar#*+}
  fill_w=${bar_size%x*} fill_h=${bar_size#*x}
  fill_x=$((region_x + ${bar_offset%+*})) fill_y=$((region_y + ${bar_offset#*+} + fill_h / 2))
  # The track is what is drawn along the fill's line in the colour just after the fill's end: from its left end to
  # its right end it holds the fill, which starts at the left end.
  track=$(convert menu.miff -crop "400x1+$((fill_x - 80))+$fill_y" +repage -depth 8 txt:- | awk -v fill_start=80 \
    -v fill_end=$((80 + fill_w - 1)) '
      NR > 1 { split($1, at, ","); x = at[1]; match($0, /\([0-9]+,[0-9]+,[0-9]+/); split(substr($0, RSTART + 1, RLENGTH - 1), c, ",")
               r[x] = c[1]; g[x] = c[2]; b[x] = c[3] }
      function near(x, y) { return (r[x] - r[y])^2 + (g[x] - g[y])^2 + (b[x] - b[y])^2 < 300 }
      END { t = fill_end + 4
            for (right = t; right + 1 < 400 && near(right + 1, t); right++) ;
            for (left = fill_start - 1; left >= 0 && near(left, t); left--) ;
            print fill_start - (left + 1), right - fill_start + 1 }')
  read -r track_before track_length <<<"$track"
  [ "$track_before" -le 3 ] || fail "the bar's fill starts $track_before pixels after its track's left end"
  [ "$track_length" -ge 200 ] || fail "the bar's track is $track_length pixels long"
  percent_drawn=$((fill_w * 100 / track_length))
  [ "$percent_drawn" -ge 38 ] && [ "$percent_drawn" -le 52 ] ||
    fail "the backup's bar is filled $fill_w of $track_length pixels, not about 45 %"
  echo "the backup's bar: filled $fill_w of $track_length pixels from the track's left end"
  convert menu.miff -crop "$shot_region" +repage "extension-gnome.png"
  # Both rows, each with its icon: the backup's is its application's, the green square of netactivity.desktop.
  green=$(colour_box "#00ff00")
  [ -n "$green" ] || fail "the backup's row has no icon of its application"
  echo "two rows: the backup's icon ($green) and the mail's"
  rebuilt_before=$(rebuilds)
  if [ -n "${clicked_open:-}" ]; then
    stop=$(colour_box "#c01c28")
    [ -n "$stop" ] || fail "the menu has no Stop button"
    stop_size=${stop%%+*} stop_offset=${stop#*+}
    stop_x=$((region_x + ${stop_offset%+*} + ${stop_size%x*} / 2))
    stop_y=$((region_y + ${stop_offset#*+} + ${stop_size#*x} / 2))
    xdotool mousemove "$stop_x" "$stop_y" click 1
  else
    probe_says Press "Stop backup" | grep -q true || fail "the probe found no Stop backup to press"
  fi
  run_ended() { ! kill -0 "$run_pid" 2>/dev/null; }
  within 15 run_ended || fail "Stop did not stop the run"
  status=0
  wait "$run_pid" || status=$?
  [ "$status" = 143 ] || fail "the run stopped from the menu exited with $status, not 143"
  echo "stopped from the menu: the run exited with status 143"
  # The menu was built again once, when the backup's row went at its end: at the click its Stop button turned into
  # "Stopping…" in place, and neither the service's reply nor its signal that it asked built anything.
  backup_gone() { ! describe | grep -q '"name":"Backup Tool: backup'; }
  within 10 backup_gone || fail "the backup's row stayed after it ended: $(describe)"
  within 10 screen_still || fail "the screen did not settle after the backup ended"
  rebuilt=$(($(rebuilds) - rebuilt_before))
  [ "$rebuilt" = 1 ] || fail "the menu was built $rebuilt times from Stop to the backup's end, not once"
  echo "the menu was built once from Stop to the backup's end, when its row went"
  # The menu stays open after Stop; a click on the desktop closes it, as a person would. (This test pressed Escape,
  # which hands the keyboard's focus to the top bar: once, in GNOME 48, the top bar stayed changed after every
  # activity ended, as a focus drawn on another of its buttons would leave it.)
  if [ -n "${clicked_open:-}" ]; then
    xdotool mousemove 640 500 click 1
  else
    probe_says CloseMenu >/dev/null || fail "the probe did not close the menu"
  fi
  menu_closed() { describe | grep -q '"open":false'; }
  within 10 menu_closed || fail "the menu did not close: $(describe)"

  # The service restarts while the mail lasts: the extension follows it, and shows the mail again.
  kill -TERM "$daemon_pid"
  wait "$daemon_pid" || true
  "$products/netactivityd" --show-delay 0 --hide-delay 0 --min-visible 0 2>>netactivityd.log &
  daemon_pid=$!
  within 10 "$products/netactivity" status >/dev/null || fail "the service did not start again"
  within 20 indicator_shown || fail "the indicator did not come back after the service restarted"
  "$products/netactivity" end "$mail_id" || fail "the mail did not end"
  indicator_gone() { [ -z "$(changed_box before.miff "$panel_region")" ]; }
  within 15 indicator_gone ||
    fail "the indicator stayed after every activity ended: $(changed_box before.miff "$panel_region") changed; $(describe)"
  echo "indicator gone after the activities ended"

  # A day: the lock screen disables and enables every extension, many times.
  for cycle in $(seq 20); do
    extensions DisableExtension >/dev/null || fail "DisableExtension failed at cycle $cycle"
    extensions EnableExtension >/dev/null || fail "EnableExtension failed at cycle $cycle"
  done
  within 20 extension_owns_its_name || fail "the extension did not start again after 20 cycles"
  day_id=$("$products/netactivity" begin --label "sync" --timeout 600)
  for percent in 10 20 30 40 50 60 70 80 90 100; do
    "$products/netactivity" progress "$day_id" "$percent" || fail "progress $percent was refused"
    shown_at() { describe | grep -q "\"name\":\"Network activity, $percent %\""; }
    within 10 shown_at || fail "the indicator did not follow the progress to $percent %: $(describe)"
  done
  within 20 indicator_shown || fail "no indicator after 20 disables and enables"
  "$products/netactivity" end "$day_id" || fail "the day's activity did not end"
  within 15 indicator_gone ||
    fail "the indicator stayed after the day's activity ended: $(changed_box before.miff "$panel_region"); $(describe)"
  echo "a day: 20 disables and enables, ten progress changes shown, the indicator gone at the end"

  grep -q "staying out of the tray" tray.log || fail "the tray did not stand down: $(tail -3 tray.log)"
  if gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
       --method org.freedesktop.DBus.ListNames | grep -q "org.kde.StatusNotifierItem-"; then
    fail "the tray published an item while the extension ran"
  fi
  gnome-extensions disable "$uuid" || fail "gnome-extensions did not disable $uuid"
  name_released() { ! extension_owns_its_name; }
  within 10 name_released || fail "the extension kept its name after it was disabled"
  within 10 grep -q "is gone; showing the indicator again" tray.log || fail "the tray did not come back"
  kill -TERM "$tray_pid"

  # A logout: with the extension on and an activity shown, the Shell and the service are stopped together.
  gnome-extensions enable "$uuid" || fail "gnome-extensions did not enable $uuid again"
  within 20 extension_owns_its_name || fail "the extension did not start again"
  "$products/netactivity" begin --label "last" --timeout 600 >/dev/null
  within 20 indicator_shown || fail "no indicator before the logout"
  kill -TERM "$shell_pid" "$daemon_pid"
  shell_gone() { ! kill -0 "$shell_pid" 2>/dev/null; }
  within 30 shell_gone || fail "the Shell did not stop"
  echo "logout: the Shell and the service stopped together"

  # Each warning and critical comes with the JavaScript stack it was raised from (SHELL_DEBUG=backtrace-warnings):
  # none may name the extension or be GJS's (an object used after it was disposed). GNOME 43 also logs criticals of
  # its own layout code when it stops after its overview was shown, with or without any extension: those are counted.
  blame=$(awk -v uuid="$uuid" '
    function judge() { if (block != "" && (block ~ /Gjs-CRITICAL|Gjs-WARNING|JS ERROR|netactivity:|indicator\.js/ || index(block, uuid))) print block; block = "" }
    /CRITICAL|WARNING|JS ERROR|netactivity:/ || index($0, uuid) { judge(); block = $0; next }
    /^#[0-9]+ / && block != "" { block = block "\n" $0; next }
    { judge() }
    END { judge() }' shell.log)
  [ -z "$blame" ] || fail "the Shell's log has lines of the extension: $blame"
  echo "the Shell's log: nothing of the extension ($(grep -c CRITICAL shell.log || true) criticals of the Shell's own)"
  [ -z "$shots" ] || cp "extension-gnome.png" "$shots/"
  echo "PASS gnome-extension"
  exit 0
fi

start_shell_scene "$0" "$@"
