#!/usr/bin/env bash
# The project's GNOME Shell extension in a person's language, on screen: a GNOME Shell whose session is German
# (LC_ALL=de_DE.UTF-8) loads the extension's zip, whose locale/ folder holds the project's catalogs; for a run at
# 13 %, 1.2 of 9 MB:
#   - the indicator is drawn in the top bar and named "Netzwerkaktivität, 13 %";
#   - its menu, opened by the test's probe extension (shell-probe/), is drawn, and what a screen reader says of it is
#     German with German numbers: the row ("backup, 13 %, 1,2 MB von 9,0 MB, …"), the bar and "backup stoppen";
#   - the Shell's log has no line of the extension.
# The whole day (shell-extension.sh) runs in English; this scene is the language's alone.
#
# Usage: shell-extension-language.sh SESSION PRODUCTS EXTENSION [SHOTS]; in Debian's newer GNOMEs through
# debian-root.sh test NAME PRODUCTS shell-extension-language.sh SESSION PRODUCTS EXTENSION SHOTS.
#   SESSION    x11 or wayland (headless, with a virtual monitor)
#   PRODUCTS   the folder with netactivityd and netactivity
#   EXTENSION  a build's zip (packaging/build-shell-extension.sh)
#   SHOTS      a folder for the picture of the open menu, extension-gnome-de.png
# Prints "PASS gnome-extension-language" and exits 0 when everything was seen, exits 1 naming what was not.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/screen.sh"
source "$here/shell-session.sh"

if [ "${1:-}" = --inside ]; then
  shift
  enter_shell_scene gnome-extension-language "$@"
  locale -a | grep -qix 'de_DE.utf-\?8' || fail "this machine has no de_DE.UTF-8 locale"
  # The session's language, which the Shell and every program of the session (gdbus's output too) follow.
  export LC_ALL=de_DE.UTF-8 LANG=de_DE.UTF-8
  gnome-extensions install --force "$extension" || fail "gnome-extensions did not install $extension"
  [ -f "$user_extensions/$uuid/locale/de/LC_MESSAGES/netactivity.mo" ] || fail "the zip carries no German catalog"
  install_probe
  "$products/netactivityd" --show-delay 0 --hide-delay 0 --min-visible 0 2>netactivityd.log &
  start_shell "['netactivity-probe@example.org', '$uuid']"
  within 120 shell_ready || fail "GNOME Shell did not come up"
  within 30 name_owned org.example.NetworkActivityProbe || fail "the test's probe extension did not start"
  within 20 name_owned org.example.NetworkActivity.ShellIndicator || fail "the extension did not start"
  echo "GNOME Shell $shell_version up in German ($session)"
  within 30 screen_still || fail "the screen did not settle"
  shot before.miff

  within 10 "$products/netactivity" status >/dev/null || fail "the service did not start"
  "$products/netactivity" run --label "backup" -- /bin/sh -c '
    netactivity progress "$NETACTIVITY_ID" --done 1234567 --total 9000000 && exec sleep 600' >run.log 2>&1 &
  progress_reported() { "$products/netactivity" status --json | grep -q '"percent":13'; }
  within 10 progress_reported || fail "the backup's progress did not reach the service: $(cat run.log)"
  indicator_shown() { box=$(changed_box before.miff "$panel_region"); [ -n "$box" ]; }
  within 20 indicator_shown || fail "no indicator appeared in the top bar ($panel_region)"
  within 30 screen_still || fail "the screen did not settle with the indicator shown"
  named_in_german() { describe | grep -q '"name":"Netzwerkaktivität, 13 %"'; }
  within 10 named_in_german || fail "the indicator's accessible name is not German: $(describe)"
  echo "indicator drawn and named in German"
  shot active.miff

  open_menu_by_probe
  menu_described=$(describe)
  for spoken in '"kind":"row","name":"([^"]*: )?backup, 13 %, 1,2 MB von 9,0 MB, [0-9]+ s"' \
                '"kind":"bar","name":"backup: 13 %"' '"kind":"stop","name":"backup stoppen"'; do
    grep -qE "$spoken" <<<"$menu_described" || fail "the menu does not say $spoken: $menu_described"
  done
  echo "the menu in German: the row with German numbers, the bar and backup stoppen"
  [ -z "$shots" ] || convert menu.miff -crop "$shot_region" +repage "$shots/extension-gnome-de.png"

  kill -TERM "$shell_pid"
  shell_gone() { ! kill -0 "$shell_pid" 2>/dev/null; }
  within 30 shell_gone || fail "the Shell did not stop"
  blame=$(grep -E "Gjs-CRITICAL|Gjs-WARNING|JS ERROR|netactivity:|indicator\.js|$uuid" shell.log || true)
  [ -z "$blame" ] || fail "the Shell's log has lines of the extension: $blame"
  echo "PASS gnome-extension-language"
  exit 0
fi

start_shell_scene "$0" "$@"
