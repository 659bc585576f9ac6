#!/usr/bin/env bash
# An app's traffic that the kernel measured, in the project's GNOME Shell extension, on screen: the system service
# counts (--traffic --traffic-loopback, on the scene's stand-in system bus), the session's service shows its user's
# share (--traffic), and curl, moved into a cgroup named like GNOME's launch of the test's app (Backup Tool, whose
# desktop file has a green icon), downloads at 256 kB/s from a paced server on loopback:
#   - the indicator appears in the top bar with no program having told anyone;
#   - its menu, opened by the test's probe extension (shell-probe/), is drawn with the app's green icon, and a screen
#     reader hears the row "Backup Tool (measured), …, N kB/s, …";
#   - the indicator leaves once the download ends;
#   - the Shell's log has no line of the extension.
# Needs root, as the counting does.
#
# Usage: shell-extension-traffic.sh SESSION PRODUCTS EXTENSION [SHOTS]
#   SESSION    x11 or wayland (headless, with a virtual monitor)
#   PRODUCTS   the folder with netactivityd and netactivity
#   EXTENSION  a build's zip (packaging/build-shell-extension.sh)
#   SHOTS      a folder for the picture of the open menu, extension-gnome-traffic.png
# Prints "PASS gnome-extension-traffic" and exits 0 when everything was seen, exits 1 naming what was not.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/screen.sh"
source "$here/shell-session.sh"

if [ "${1:-}" = --inside ]; then
  shift
  enter_shell_scene gnome-extension-traffic "$@"
  mkdir -p "$XDG_DATA_HOME/applications" "$XDG_DATA_HOME/icons/hicolor/scalable/apps"
  printf '[Desktop Entry]\nType=Application\nName=Backup Tool\nIcon=netactivity-test-backup\nExec=true\n' \
    >"$XDG_DATA_HOME/applications/backup-tool.desktop"
  printf '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><rect width="16" height="16" fill="#00ff00"/></svg>\n' \
    >"$XDG_DATA_HOME/icons/hicolor/scalable/apps/netactivity-test-backup.svg"
  # The app's unit, GNOME's launch of backup-tool.desktop, in a folder of the scene's own in the cgroup v2 tree.
  cgroup_root=$(awk '$0 ~ / - cgroup2 / { print $5; exit }' /proc/self/mountinfo)
  [ -n "$cgroup_root" ] || fail "no cgroup v2 tree is mounted"
  scope="$cgroup_root/netactivity-scene-$$/app-gnome-backup\\x2dtool-77.scope"
  mkdir -p "$scope" || fail "cannot make $scope"
  trap 'kill -KILL "$shell_pid" 2>/dev/null || true; for pid in $(jobs -p); do kill -KILL "$pid" 2>/dev/null || true; done
        sleep 0.2; rmdir "$scope" "${scope%/*}" 2>/dev/null || true' EXIT

  gnome-extensions install --force "$extension" || fail "gnome-extensions did not install $extension"
  install_probe
  "$products/netactivityd" --system --traffic --traffic-loopback --state-dir "$work/system-state" \
    --log-level debug 2>system.log &
  "$products/netactivityd" --traffic --show-delay 0 --hide-delay 0 --min-visible 0 2>netactivityd.log &
  start_shell "['netactivity-probe@example.org', '$uuid']"
  within 120 shell_ready || fail "GNOME Shell did not come up"
  within 30 name_owned org.example.NetworkActivityProbe || fail "the test's probe extension did not start"
  within 20 name_owned org.example.NetworkActivity.ShellIndicator || fail "the extension did not start"
  echo "GNOME Shell $shell_version up ($session)"
  counting() { "$products/netactivity" status | grep -q "^traffic: counting"; }
  within 20 counting || fail "the session does not show measured traffic: $("$products/netactivity" status)"
  within 30 screen_still || fail "the screen did not settle"
  shot before.miff

  # A paced server on loopback, and the app's download from it.
  python3 -c '
import socket, sys, time
server = socket.socket(); server.bind(("127.0.0.1", 0)); server.listen(1)
print(server.getsockname()[1], flush=True)
client, _ = server.accept(); client.recv(4096)
client.sendall(b"HTTP/1.0 200 OK\r\n\r\n")
start = time.monotonic(); sent = 0
while time.monotonic() - start < 600:
    client.sendall(b"\0" * 13107); sent += 1
    time.sleep(max(0, start + sent / 20 - time.monotonic()))' >server.port 2>server.log &
  within 10 test -s server.port || fail "the paced server did not start"
  sh -c 'echo $$ > "$0/cgroup.procs" && exec curl -s -o /dev/null "http://127.0.0.1:$1/"' "$scope" \
    "$(head -1 server.port)" 2>curl.log &
  download_pid=$!
  indicator_shown() { box=$(changed_box before.miff "$panel_region"); [ -n "$box" ]; }
  within 20 indicator_shown || fail "no indicator appeared in the top bar for the download ($panel_region)"
  within 30 screen_still || fail "the screen did not settle with the indicator shown"
  echo "indicator drawn for a download no program told of"
  shot active.miff

  open_menu_by_probe
  spoken='"kind":"row","name":"Backup Tool \(measured\), [^"]*kB/s, [0-9]+ s"'
  grep -qE "$spoken" <<<"$(describe)" || fail "the menu does not say $spoken: $(describe)"
  green=$(convert menu.miff -crop "$menu_region" +repage -fuzz 8% -fill black +opaque "#00ff00" -fill white \
    -opaque "#00ff00" -colorspace gray -format "%[fx:round(mean*w*h)]" info:)
  [ "$green" -ge 100 ] || fail "the row has no icon of its app ($green green pixels)"
  echo "the menu: Backup Tool (measured) with its rate and its app's icon"
  [ -z "$shots" ] || convert menu.miff -crop "$shot_region" +repage "$shots/extension-gnome-traffic.png"
  probe_says CloseMenu >/dev/null || fail "the probe did not close the menu"

  kill -TERM "$download_pid"
  indicator_gone() { [ -z "$(changed_box before.miff "$panel_region")" ]; }
  within 20 indicator_gone || fail "the indicator stayed after the download ended"
  echo "the indicator left after the download"

  kill -TERM "$shell_pid"
  shell_gone() { ! kill -0 "$shell_pid" 2>/dev/null; }
  within 30 shell_gone || fail "the Shell did not stop"
  blame=$(grep -E "Gjs-CRITICAL|Gjs-WARNING|JS ERROR|netactivity:|indicator\.js|$uuid" shell.log || true)
  [ -z "$blame" ] || fail "the Shell's log has lines of the extension: $blame"
  echo "PASS gnome-extension-traffic"
  exit 0
fi

start_shell_scene "$0" "$@"
