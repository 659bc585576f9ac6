#!/usr/bin/env bash
# Runs a dock on a virtual screen with a launcher for the test's app, and checks by the screen's pixels that
# netactivity-tray shows a `netactivity run` of that app at 45 % as the dock's progress bar on the app's icon, and
# that the bar is gone after the run ends. The app is the run's command, netactivity, which a desktop file in the
# session's XDG_DATA_HOME names Backup Tool, with a green square for its icon.
#
# Usage: dock-progress.sh DOCK PRODUCTS [SHOTS]
#   DOCK      plank (its launcher a .dockitem), dash-to-dock (GNOME Shell 43 with Dash to Dock, the app a
#             favourite, the dock fixed at the bottom), or plasma-tasks (Plasma 6's task manager in its panel, the
#             app a launcher there; in Debian 13's root: debian-root.sh test trixie-plasma ...)
#   PRODUCTS  the folder with netactivityd, netactivity and netactivity-tray (e.g. .build/debug)
#   SHOTS     a folder for the picture of the icon with its bar (docs/dock-DOCK.png)
# Prints "PASS DOCK" and exits 0 when everything was seen, exits 1 naming what was not.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/screen.sh"
# Both docks sit at the bottom of the screen's middle.
dock_region=500x120+390+680
# How far the bar's shade differs from the icon's background, at least.
bar_shade=12%

if [ "${1:-}" = --inside ]; then
  shift
  dock=$1 products=$2 shots=$3 work=$4
  export PATH="$products:$PATH"
  cd "$work"
  trap 'for pid in $(jobs -p); do kill -KILL "$pid" 2>/dev/null || true; done' EXIT
  fail() {
    echo "FAIL ($dock): $*" >&2
    for log in "$work"/*.log; do echo "--- $log" >&2; tail -15 "$log" >&2; done
    shot "$work/failed.miff" || true
    [ -z "$shots" ] || convert "$work/failed.miff" "$shots/failed-$dock.png" || true
    exit 1
  }
  mkdir -p "$XDG_DATA_HOME/applications" "$XDG_DATA_HOME/icons/hicolor/scalable/apps" \
    "$XDG_CONFIG_HOME/plank/dock1/launchers"
  desktop_file=$XDG_DATA_HOME/applications/netactivity.desktop
  printf '[Desktop Entry]\nType=Application\nName=Backup Tool\nIcon=netactivity-test-backup\nExec=true\n' >"$desktop_file"
  printf '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><rect width="16" height="16" fill="#00ff00"/></svg>\n' \
    >"$XDG_DATA_HOME/icons/hicolor/scalable/apps/netactivity-test-backup.svg"
  case $dock in
    plank)
      printf '[PlankDockItemPreferences]\nLauncher=file://%s\n' "$desktop_file" \
        >"$XDG_CONFIG_HOME/plank/dock1/launchers/netactivity.dockitem"
      plank >plank.log 2>&1 &
      dock_pid=$!
      ;;
    dash-to-dock)
      gsettings set org.gnome.shell enabled-extensions "['dash-to-dock@micxgx.gmail.com']"
      gsettings set org.gnome.shell disable-user-extensions false
      gsettings set org.gnome.shell favorite-apps "['netactivity.desktop']"
      gsettings set org.gnome.shell welcome-dialog-last-shown-version '999'
      gsettings set org.gnome.desktop.notifications show-banners false
      gsettings set org.gnome.shell.extensions.dash-to-dock dock-fixed true
      gsettings set org.gnome.shell.extensions.dash-to-dock dock-position BOTTOM
      gnome-shell --x11 --sm-disable >shell.log 2>&1 &
      dock_pid=$!
      overview_closed() {
        gdbus call --session --dest org.gnome.Shell --object-path /org/gnome/Shell \
          --method org.freedesktop.DBus.Properties.Set org.gnome.Shell OverviewActive "<false>" >/dev/null 2>&1
        gdbus call --session --dest org.gnome.Shell --object-path /org/gnome/Shell \
          --method org.freedesktop.DBus.Properties.Get org.gnome.Shell OverviewActive 2>/dev/null | grep -q false
      }
      within 90 overview_closed || fail "GNOME Shell did not come up"
      ;;
    plasma-tasks)
      # The panel is at the bottom; its task manager's launchers are set by Plasma's own scripting interface.
      dock_region=1280x44+0+756
      # XDG_MENU_PREFIX as a Plasma session sets it: Plasma's menu of applications is plasma-applications.menu.
      export XDG_CURRENT_DESKTOP=KDE KDE_FULL_SESSION=true KDE_SESSION_VERSION=6 QT_QPA_PLATFORM=xcb XDG_MENU_PREFIX=plasma-
      # Plasma draws progress only on an app's running windows: the app will have one (xmessage's, whose class the
      # desktop file claims), which joins its launcher.
      printf 'StartupWMClass=Xmessage\n' >>"$desktop_file"
      # Plasma finds applications through its database of them, which a session builds at login.
      kbuildsycoca6 >sycoca.log 2>&1 || fail "kbuildsycoca6 failed"
      kwin_x11 >kwin.log 2>&1 &
      plasmashell --no-respawn >plasma.log 2>&1 &
      dock_pid=$!
      # Done when the script found the task manager (the panel is made a moment after the shell answers).
      launcher_set() {
        gdbus call --session --dest org.kde.plasmashell --object-path /PlasmaShell \
          --method org.kde.PlasmaShell.evaluateScript "let set = 0;
            panels().forEach(panel => panel.widgets().forEach(widget => {
              if (widget.type.endsWith('icontasks') || widget.type.endsWith('taskmanager')) {
                widget.currentConfigGroup = ['General'];
                widget.writeConfig('launchers', ['file://$desktop_file']);
                widget.reloadConfig();
                set += 1;
              } }));
            print('launchers set: ' + set);" 2>/dev/null | grep -q "launchers set: [1-9]"
      }
      within 90 launcher_set || fail "Plasma's shell did not come up"
      xmessage -geometry +400+300 "Backup Tool" >xmessage.log 2>&1 &
      ;;
    *) fail "no such dock: $dock" ;;
  esac
  # Plank's icon: the green square, drawn.
  green_drawn() {
    shot dock.miff
    [ "$(convert dock.miff -crop "$dock_region" +repage -fuzz 10% -fill black +opaque "#00ff00" -fill white \
      -opaque "#00ff00" -colorspace gray -format "%[fx:round(mean*w*h)]" info:)" -ge 400 ]
  }
  within 30 green_drawn || fail "the dock did not draw the app's icon"
  if [ "$dock" = plasma-tasks ]; then
    # Plasma's panel also holds the tray, where netactivity-tray's icon appears: only the launcher's part counts.
    green=$(convert dock.miff -crop "$dock_region" +repage -fuzz 10% -fill black +opaque "#00ff00" -fill white \
      -opaque "#00ff00" -colorspace gray -format "%@" info:)
    green_x=${green#*+}; green_x=${green_x%+*}
    dock_region=56x44+$((green_x - 12))+756
    # Plasma fills the task's highlight with a darker shade of it as far as the progress goes.
    bar_shade=5%
  fi
  "$products/netactivityd" --show-delay 0 --hide-delay 0 --min-visible 0 2>netactivityd.log &
  "$products/netactivity-tray" --log-level debug 2>tray.log &
  within 10 "$products/netactivity" status >/dev/null || fail "the service did not start"
  # The reference, once the dock has settled with the service and the tray running: a dock still finishing its
  # start on a busy machine would otherwise differ from it as a whole, bar or no bar.
  # Still for two checks in a row: one can fall between two frames of an animation slowed by the load.
  settled() { screen_still && screen_still; }
  within 30 settled || fail "the screen did not settle"
  shot before.miff
  "$products/netactivity" run --label "backup" -- /bin/sh -c '
    netactivity progress "$NETACTIVITY_ID" 45 && exec sleep 600' >run.log 2>&1 &
  run_pid=$!
  bar_shown() { box=$(changed_box before.miff "$dock_region" "$bar_shade"); [ -n "$box" ]; }
  within 20 bar_shown || fail "the dock drew no progress on the app's icon ($(grep -c 'dock progress' tray.log) updates sent)"
  within 10 screen_still || fail "the screen did not settle with the bar"
  bar_shown || fail "the bar did not stay"
  read -r bar_w bar_h bar_x bar_y <<<"$box"
  echo "the dock's progress bar: ${bar_w}x${bar_h} at $bar_x,$bar_y"
  convert now.miff -crop "$dock_region" +repage "dock-$dock.png"
  kill -TERM "$run_pid"
  bar_gone() { [ -z "$(changed_box before.miff "$dock_region" "$bar_shade")" ]; }
  within 15 bar_gone || fail "the bar stayed after the run ended"
  echo "the bar is gone after the run ended"
  kill -0 "$dock_pid" || fail "the dock died"
  [ -z "$shots" ] || cp "dock-$dock.png" "$shots/"
  echo "PASS $dock"
  exit 0
fi

dock=$1 products=$(cd "$2" && pwd) shots=${3:+$(cd "$3" && pwd)}
# GNOME Shell and Plasma want a system bus.
[ "$dock" = plank ] || needs_system_bus=1
open_screen 1280x800x24
exec_session bash "$0" --inside "$dock" "$products" "${shots:-}"
