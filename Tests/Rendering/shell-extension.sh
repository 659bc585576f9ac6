#!/usr/bin/env bash
# Runs GNOME Shell 43 on a virtual screen with the project's extension enabled and no AppIndicator extension, and
# checks by the screen's pixels what a person would see: a `netactivity run` labelled backup at 45 % and a timed
# "mail" make the indicator appear in the top bar; a click opens its menu, with both rows, the backup's bar filled
# about 45 % along and its Stop button; a click on Stop makes the run exit 143; after the ends the indicator is gone.
# netactivity-tray runs in the same session and stays out of the tray while the extension owns its name. The
# service restarted meanwhile and the extension disabled leave no warning or error of the extension in the Shell's
# log. Everything runs on its own virtual screen and private buses; each step waits for what it expects with a
# deadline.
#
# Usage: shell-extension.sh PRODUCTS EXTENSION [SHOTS]
#   PRODUCTS   the folder with netactivityd, netactivity and netactivity-tray (e.g. .build/debug)
#   EXTENSION  the GNOME 43 build's zip (packaging/build-shell-extension.sh: gnome-43/netactivity@example.org.shell-extension.zip),
#              installed with `gnome-extensions install` and turned on with `gnome-extensions enable`, as the README says
#   SHOTS      a folder for the pictures of the top bar and the open menu (docs/)
# Prints "PASS gnome-extension" and exits 0 when everything was seen, exits 1 naming what was not.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/screen.sh"
uuid=netactivity@example.org
# The top bar's right part, away from the clock; the menu under it; the part of the screen kept as a picture.
panel_region=480x32+800+0
menu_region=900x500+380+30
shot_region=560x300+720+0

if [ "${1:-}" = --inside ]; then
  shift
  products=$1 extension=$2 shots=$3 work=$4
  export PATH="$products:$PATH"
  cd "$work"
  trap 'kill -KILL "$shell_pid" 2>/dev/null || true; for pid in $(jobs -p); do kill -KILL "$pid" 2>/dev/null || true; done' EXIT
  fail() {
    echo "FAIL (gnome-extension): $*" >&2
    for log in "$work"/*.log; do echo "--- $log" >&2; tail -15 "$log" >&2; done
    shot "$work/failed.miff"
    [ -z "$shots" ] || convert "$work/failed.miff" "$shots/failed-gnome-extension.png" || true
    exit 1
  }
  # The activities' program has a desktop file, as an installed application has: each row shows its green icon.
  mkdir -p "$XDG_DATA_HOME/applications" "$XDG_DATA_HOME/icons/hicolor/scalable/apps"
  printf '[Desktop Entry]\nType=Application\nName=Backup Tool\nIcon=netactivity-test-backup\nExec=true\n' \
    >"$XDG_DATA_HOME/applications/netactivity.desktop"
  printf '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><rect width="16" height="16" fill="#00ff00"/></svg>\n' \
    >"$XDG_DATA_HOME/icons/hicolor/scalable/apps/netactivity-test-backup.svg"
  gnome-extensions install --force "$extension" || fail "gnome-extensions did not install $extension"
  [ -f "$XDG_DATA_HOME/gnome-shell/extensions/$uuid/metadata.json" ] || fail "the zip was installed elsewhere"
  # A fresh session: no extension enabled, the AppIndicator extension neither.
  gsettings set org.gnome.shell enabled-extensions "[]"
  gsettings set org.gnome.shell disable-user-extensions false
  gsettings set org.gnome.shell welcome-dialog-last-shown-version '999'
  gsettings set org.gnome.desktop.notifications show-banners false
  "$products/netactivityd" --show-delay 0 --hide-delay 0 --min-visible 0 2>netactivityd.log &
  daemon_pid=$!
  gnome-shell --x11 --sm-disable >shell.log 2>&1 &
  shell_pid=$!
  overview_closed() {
    gdbus call --session --dest org.gnome.Shell --object-path /org/gnome/Shell \
      --method org.freedesktop.DBus.Properties.Set org.gnome.Shell OverviewActive "<false>" >/dev/null 2>&1
    gdbus call --session --dest org.gnome.Shell --object-path /org/gnome/Shell \
      --method org.freedesktop.DBus.Properties.Get org.gnome.Shell OverviewActive 2>/dev/null | grep -q false
  }
  extension_owns_its_name() {
    gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
      --method org.freedesktop.DBus.NameHasOwner org.example.NetworkActivity.ShellIndicator 2>/dev/null | grep -q true
  }
  shell_ready() { overview_closed && drawn_at 640 500; }
  within 90 shell_ready || fail "GNOME Shell did not come up"
  gnome-extensions enable "$uuid" || fail "gnome-extensions did not enable $uuid"
  within 20 extension_owns_its_name || fail "the extension did not start: $(gnome-extensions info "$uuid" 2>&1 | tr '\n' ' ')"
  within 30 screen_still || fail "the screen did not settle"
  shot before.miff
  # The tray, as a desktop's autostart would start it: it must stay out of the tray while the extension runs.
  "$products/netactivity-tray" --log-level debug 2>tray.log &
  echo "host up: gnome-extension"

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
  shot active.miff

  xdotool mousemove $((icon_x + icon_w / 2)) $((icon_y + icon_h / 2)) click 1
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
  # The bar's fill (#3584e4) and the Stop button (#c01c28), by their colours: the bounding box of each.
  colour_box() {
    convert menu.miff -crop "$menu_region" +repage -fuzz 8% -fill black +opaque "$1" -fill white -opaque "$1" \
      -colorspace gray -threshold 50% -define connected-components:verbose=true -connected-components 8 null: \
      2>/dev/null | awk '/gray\(255\)|gray\(100%\)|white/ { if ($4 > best) { best = $4; box = $2 } } END { print box }'
  }
  bar=$(colour_box "#3584e4")
  [ -n "$bar" ] || fail "the menu has no progress bar's fill"
  bar_width=${bar%%x*}
  # The bar is 240 pixels wide: 45 % is 108.
  [ "$bar_width" -ge 95 ] && [ "$bar_width" -le 121 ] || fail "the backup's bar is filled $bar_width of 240 pixels, not about 45 %"
  echo "the backup's bar: filled $bar_width of 240 pixels"
  stop=$(colour_box "#c01c28")
  [ -n "$stop" ] || fail "the menu has no Stop button"
  stop_size=${stop%%+*} stop_offset=${stop#*+}
  region_x=${menu_region#*+}; region_x=${region_x%+*}; region_y=${menu_region##*+}
  stop_x=$((region_x + ${stop_offset%+*} + ${stop_size%x*} / 2))
  stop_y=$((region_y + ${stop_offset#*+} + ${stop_size#*x} / 2))
  convert menu.miff -crop "$shot_region" +repage "extension-gnome.png"
  # Both rows, each with its icon: the backup's is its application's, the green square of netactivity.desktop; the
  # mail's, a lease whose program has gone, is the indicator's own, drawn light in the same column under it.
  green=$(colour_box "#00ff00")
  [ -n "$green" ] || fail "the backup's row has no icon of its application"
  green_size=${green%%+*} green_offset=${green#*+}
  green_w=${green_size%x*} green_h=${green_size#*x}
  column="${green_w}x${menu_h}+$((region_x + ${green_offset%+*}))+$((region_y + ${green_offset#*+} + green_h + 4))"
  mail_icon=$(convert menu.miff -crop "$column" +repage -colorspace gray -threshold 45% \
    -format "%[fx:round(mean*w*h)]" info:)
  [ "$mail_icon" -ge 30 ] || fail "no second row's icon under the backup's ($column: $mail_icon light pixels)"
  echo "two rows: the backup's icon ($green) and the mail's under it ($mail_icon light pixels)"
  xdotool mousemove "$stop_x" "$stop_y" click 1
  run_ended() { ! kill -0 "$run_pid" 2>/dev/null; }
  within 15 run_ended || fail "a click on Stop at $stop_x,$stop_y did not stop the run"
  status=0
  wait "$run_pid" || status=$?
  [ "$status" = 143 ] || fail "the run stopped from the menu exited with $status, not 143"
  echo "stopped from the menu: the run exited with status 143"
  xdotool key Escape
  xdotool mousemove 640 500

  # The service restarts while the mail lasts: the extension follows it, and shows the mail again.
  kill -TERM "$daemon_pid"
  wait "$daemon_pid" || true
  "$products/netactivityd" --show-delay 0 --hide-delay 0 --min-visible 0 2>>netactivityd.log &
  daemon_pid=$!
  within 10 "$products/netactivity" status >/dev/null || fail "the service did not start again"
  within 20 indicator_shown || fail "the indicator did not come back after the service restarted"
  "$products/netactivity" end "$mail_id" || fail "the mail did not end"
  indicator_gone() { [ -z "$(changed_box before.miff "$panel_region")" ]; }
  within 15 indicator_gone || fail "the indicator stayed after every activity ended"
  echo "indicator gone after the activities ended"

  grep -q "staying out of the tray" tray.log || fail "the tray did not stand down: $(tail -3 tray.log)"
  if gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
       --method org.freedesktop.DBus.ListNames | grep -q "org.kde.StatusNotifierItem-"; then
    fail "the tray published an item while the extension ran"
  fi
  gnome-extensions disable "$uuid" || fail "gnome-extensions did not disable $uuid"
  name_released() { ! extension_owns_its_name; }
  within 10 name_released || fail "the extension kept its name after it was disabled"
  within 10 grep -q "is gone; showing the indicator again" tray.log || fail "the tray did not come back"
  if grep -iE "netactivity|$uuid" shell.log | grep -iE "error|warning|exception|critical"; then
    fail "the Shell's log has a warning or error of the extension"
  fi
  [ -z "$shots" ] || cp "extension-gnome.png" "$shots/"
  echo "PASS gnome-extension"
  exit 0
fi

products=$(cd "$1" && pwd) extension=$(cd "$(dirname "$2")" && pwd)/$(basename "$2") shots=${3:+$(cd "$3" && pwd)}
needs_system_bus=1
open_screen 1280x800x24
exec_session bash "$0" --inside "$products" "$extension" "${shots:-}"
