#!/usr/bin/env bash
# An app's traffic that the kernel measured, in the project's GNOME Shell extension, on screen: the system service
# counts (--traffic --traffic-loopback, on the scene's stand-in system bus), the session's service shows its user's
# share (--traffic), and a download, in the cgroup where systemd puts GNOME's launch of the test's app for the
# session's user (/user.slice/user-UID.slice/user@UID.service/app.slice/app-gnome-backup\x2dtool-N.scope; Backup
# Tool, whose desktop file has a green icon), from a server on loopback that speeds up each second (128 kB/s on):
#   - the indicator appears in the top bar with no program having told anyone;
#   - its menu, opened by the test's probe extension (shell-probe/), is drawn with the app's green icon, and a screen
#     reader hears the row "Backup Tool (measured), …, N kB/s, …";
#   - the row's rate changes at least three times while the download runs (the session's signals carry its user's
#     own app), in place: the menu is not built again;
#   - its Pause button (named "Pause Backup Tool’s network" for a screen reader) pauses it: the row says paused,
#     and Resume, in Pause's place (the same button, the menu not built again), resumes it;
#   - its Limit submenu ("Limit Backup Tool’s speed"), opened, is drawn; its 1 MB/s makes the app's rule (as
#     `netactivity limits` shows it), the row says "limited to 1.0 MB/s" and the preset is marked; "Pause on
#     metered networks" adds that to the rule, "No limit" lifts the speed, and the check box again takes it back;
#   - the day's data usage (loopback counted, as --traffic-loopback says): once a question took the kernel's counts,
#     the menu has "Used today" with the app's row ("Backup Tool — N kB, P % of today") and a bar of its share,
#     filled in the Shell's accent colour;
#   - a data plan of 1 MB a day on the loopback network, which the download has passed (the kernel never holds
#     loopback back, so only its levels show): the Shell's own notification "Data plan used up", "lo: N MB of
#     1.0 MB used; its apps are stopped until it resets on D", drawn as a banner, and its Resume, taken, resumes
#     the plan; the plan heads the menu's "Used today" with its row ("lo: N MB of 1.0 MB (100 %)") and a full bar;
#   - where the root has AT-SPI (GNOME 48 and later): the keyboard alone reaches the indicator, opens its menu,
#     presses Pause, Resume and Pause again (the keyboard staying on the row's button), a screen reader reads the row as
#     enabled, and when the indicator hides the keyboard is back on the top bar;
#   - the indicator leaves once the download ends;
#   - the Shell's log has no line of the extension.
# Needs root, as the counting does.
#
# Usage: shell-extension-traffic.sh SESSION PRODUCTS EXTENSION [SHOTS]
#   SESSION    x11 or wayland (headless, with a virtual monitor)
#   PRODUCTS   the folder with netactivityd and netactivity
#   EXTENSION  a build's zip (packaging/build-shell-extension.sh)
#   SHOTS      a folder for the pictures of the open menu, extension-gnome-traffic.png and extension-gnome-usage.png
# Prints "PASS gnome-extension-traffic" and exits 0 when everything was seen, exits 1 naming what was not.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/screen.sh"
source "$here/shell-session.sh"

if [ "${1:-}" = --inside ]; then
  shift
  enter_shell_scene gnome-extension-traffic "$@"
  # The app's desktop file id is the scene's own (backup-tool-PID), its name Backup Tool.
  app="backup-tool-$$"
  mkdir -p "$XDG_DATA_HOME/applications" "$XDG_DATA_HOME/icons/hicolor/scalable/apps"
  printf '[Desktop Entry]\nType=Application\nName=Backup Tool\nIcon=netactivity-test-backup\nExec=true\n' \
    >"$XDG_DATA_HOME/applications/$app.desktop"
  printf '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><rect width="16" height="16" fill="#00ff00"/></svg>\n' \
    >"$XDG_DATA_HOME/icons/hicolor/scalable/apps/netactivity-test-backup.svg"
  # The app's unit, GNOME's launch of its desktop file, where systemd puts a desktop's apps for the session's
  # user; the folders above it made where missing, and those alone removed after.
  cgroup_root=$(awk '$0 ~ / - cgroup2 / { print $5; exit }' /proc/self/mountinfo)
  [ -n "$cgroup_root" ] || fail "no cgroup v2 tree is mounted"
  uid=$(id -u)
  made=()
  folder=$cgroup_root
  for name in user.slice "user-$uid.slice" "user@$uid.service" app.slice "app-gnome-${app//-/\\x2d}-77.scope"; do
    folder="$folder/$name"
    if mkdir "$folder" 2>/dev/null; then made=("$folder" "${made[@]}"); fi
    [ -d "$folder" ] || fail "cannot make $folder"
  done
  scope=$folder
  trap 'kill -KILL "$shell_pid" 2>/dev/null || true; for pid in $(jobs -p); do kill -KILL "$pid" 2>/dev/null || true; done
        sleep 0.2; for folder in "${made[@]}"; do rmdir "$folder" 2>/dev/null || true; done' EXIT

  gnome-extensions install --force "$extension" || fail "gnome-extensions did not install $extension"
  install_probe
  # A screen reader's view, where the root has AT-SPI's Python binding (Debian 13's GNOME and later): the Shell
  # opens its accessibility when the toolkit's is on.
  atspi=
  if [ "$session" = x11 ] && python3 -c 'import pyatspi' 2>/dev/null; then
    atspi=1
    gsettings set org.gnome.desktop.interface toolkit-accessibility true
    # The scenes keep programs off the accessibility bus (screen.sh); this one's Shell is on it.
    unset NO_AT_BRIDGE
  fi
  # This scene's app alone: another copy of the suite, as the same user, may download beside it.
  "$products/netactivityd" --system --traffic --traffic-loopback --traffic-apps "$app" --state-dir "$work/system-state" \
    --log-level debug 2>system.log &
  "$products/netactivityd" --traffic --traffic-apps "$app" --show-delay 0 --hide-delay 0 --min-visible 0 \
    2>netactivityd.log &
  start_shell "['netactivity-probe@example.org', '$uuid']"
  within 120 shell_ready || fail "GNOME Shell did not come up"
  within 30 name_owned org.example.NetworkActivityProbe || fail "the test's probe extension did not start"
  within 20 name_owned org.example.NetworkActivity.ShellIndicator || fail "the extension did not start"
  echo "GNOME Shell $shell_version up ($session)"
  counting() { "$products/netactivity" status | grep -q "^traffic: counting"; }
  within 20 counting || fail "the session does not show measured traffic: $("$products/netactivity" status)"
  within 30 screen_still || fail "the screen did not settle"
  shot before.miff

  # A server on loopback that sends a twentieth of its rate at a time, the rate 128 kB/s and 64 kB/s more each
  # second, and the app's download from it (Python, which every root has).
  python3 -c '
import socket, sys, time
server = socket.socket(); server.bind(("127.0.0.1", 0)); server.listen(1)
print(server.getsockname()[1], flush=True)
client, _ = server.accept()
start = time.monotonic()
while time.monotonic() - start < 600:
    client.sendall(b"\0" * int((131072 + 65536 * int(time.monotonic() - start)) / 20))
    time.sleep(0.05)' >server.port 2>server.log &
  within 10 test -s server.port || fail "the paced server did not start"
  sh -c 'echo $$ > "$0/cgroup.procs" && exec python3 -c "
import socket, sys
connection = socket.create_connection((\"127.0.0.1\", int(sys.argv[1])))
while connection.recv(1 << 16): pass" "$1"' "$scope" "$(head -1 server.port)" 2>download.log &
  download_pid=$!
  indicator_shown() { box=$(changed_box before.miff "$panel_region"); [ -n "$box" ]; }
  within 20 indicator_shown || fail "no indicator appeared in the top bar for the download ($panel_region)"
  within 30 screen_still || fail "the screen did not settle with the indicator shown"
  echo "indicator drawn for a download no program told of"
  shot active.miff

  # One row, without a bar or Stop: GNOME 48 draws it 194 pixels wide, and its dark grey close to the wallpaper's.
  open_menu_by_probe 150
  spoken='"kind":"row","name":"Backup Tool \(measured\), [^"]*kB/s, [0-9]+ s"'
  grep -qE "$spoken" <<<"$(describe)" || fail "the menu does not say $spoken: $(describe)"
  green=$(convert menu.miff -crop "$menu_region" +repage -fuzz 8% -fill black +opaque "#00ff00" -fill white \
    -opaque "#00ff00" -colorspace gray -format "%[fx:round(mean*w*h)]" info:)
  [ "$green" -ge 100 ] || fail "the row has no icon of its app ($green green pixels)"
  echo "the menu: Backup Tool (measured) with its rate and its app's icon"
  [ -z "$shots" ] || convert menu.miff -crop "$shot_region" +repage "$shots/extension-gnome-traffic.png"
  # The open menu follows the session's ActivitiesChanged: the row's rate, read as a screen reader reads it.
  rates=()
  rate_moved() {
    local rate last=""
    rate=$(describe | grep -oE '"name":"Backup Tool \(measured\), [^"]*' | grep -oE '[0-9.,]+ [kM]B/s' | tail -1)
    [ ${#rates[@]} -eq 0 ] || last=${rates[$((${#rates[@]} - 1))]}
    [ -n "$rate" ] && [ "$rate" != "$last" ] && rates+=("$rate")
    [ ${#rates[@]} -ge 4 ]
  }
  rebuilt_before=$(rebuilds)
  within 30 rate_moved || fail "the row's rate did not change three times: ${rates[*]}"
  echo "the row's rate changed $((${#rates[@]} - 1)) times while the download ran: ${rates[*]}"

  # Pause, pressed as a person presses it: the row says paused in place of its rate, and Resume takes Pause's
  # place; Resume brings the rate back. (The download is on loopback, which a pause never holds back: that the
  # kernel drops a paused app's packets is PauseTests' part.)
  grep -q '"kind":"pause","name":"Pause Backup Tool’s network"' <<<"$(describe)" ||
    fail "the row has no Pause button named for a screen reader: $(describe)"
  probe_says Press "Pause Backup Tool’s network" | grep -q true || fail "the probe found no Pause to press"
  paused_row() { grep -qE '"kind":"row","name":"Backup Tool \(measured\), [^"]*, paused, [0-9]+ s"' <<<"$(describe)" &&
    grep -q '"kind":"pause","name":"Resume Backup Tool’s network"' <<<"$(describe)"; }
  within 20 paused_row || fail "the row did not say paused, with Resume: $(describe)"
  within 30 screen_still || fail "the screen did not settle with the row paused"
  shot menu.miff
  [ -z "$shots" ] || convert menu.miff -crop "$shot_region" +repage "$shots/extension-gnome-paused.png"
  probe_says Press "Resume Backup Tool’s network" | grep -q true || fail "the probe found no Resume to press"
  resumed_row() { grep -qE '"kind":"row","name":"Backup Tool \(measured\), [^"]*[kM]B/s, [0-9]+ s"' <<<"$(describe)" &&
    grep -q '"kind":"pause","name":"Pause Backup Tool’s network"' <<<"$(describe)"; }
  within 20 resumed_row || fail "the row did not come back with its rate and Pause: $(describe)"
  echo "the menu: Pause paused the app, the row said so, Resume resumed it"
  # The same rows all along: the rates, Pause, paused, Resume and the rate again changed the row in place.
  rebuilt=$(($(rebuilds) - rebuilt_before))
  [ "$rebuilt" = 0 ] || fail "the menu was built $rebuilt times while only its row changed"
  echo "the row changed in place: the menu was not built again"
  probe_says CloseMenu >/dev/null || fail "the probe did not close the menu"

  # Limit, a submenu under the row: opened, its presets drawn (the menu grows by their rows); 1 MB/s makes the app's
  # rule, and the row says "limited to 1.0 MB/s" with the preset marked; "Pause on metered networks" adds that to
  # the rule, "No limit" lifts the speed, and the check box, again, takes the pause back. Each choice closes the
  # menu, as the Shell's own menus do. (The download is on loopback, which no limit holds back: that the kernel
  # holds an app to its limit is SpeedLimitTests' part.)
  open_menu_by_probe 150
  cp menu.miff unlimited.miff
  grep -q '"kind":"row","name":"Limit Backup Tool’s speed"' <<<"$(describe)" ||
    fail "the row has no Limit submenu named for a screen reader: $(describe)"
  read -r _ closed_height _ _ <<<"$(changed_box active.miff "$menu_region")"
  # The rule as the service keeps it, one line of JSON; null for none.
  rule() {
    "$products/netactivity" limits --json --system | python3 -c '
import json, sys
rules = [rule for rule in json.load(sys.stdin) if rule["app"] == sys.argv[1]]
print(json.dumps(rules[0] if rules else None, sort_keys=True))' "$app"
  }
  chosen() { grep -q "\"kind\":\"option\",\"name\":\"$1\",\"chosen\":$2" <<<"$(describe)"; }
  # Opens the submenu, and chooses OPTION in it, as a person does.
  choose() {
    probe_says Press "Limit Backup Tool’s speed" | grep -q true || fail "the probe found no Limit to open"
    probe_says Press "$1" | grep -q true || fail "the probe found no $1 in the Limit submenu: $(describe)"
  }
  probe_says Press "Limit Backup Tool’s speed" | grep -q true || fail "the probe found no Limit to open"
  submenu_drawn() {
    local box height
    box=$(changed_box active.miff "$menu_region")
    [ -n "$box" ] || return 1
    read -r _ height _ _ <<<"$box"
    [ "$height" -ge $((closed_height + 100)) ]
  }
  within 15 submenu_drawn || fail "the Limit submenu was not drawn: $(changed_box active.miff "$menu_region"), $closed_height high closed"
  within 30 screen_still || fail "the screen did not settle with the Limit submenu open"
  shot menu.miff
  [ -z "$shots" ] || convert menu.miff -crop "$shot_region" +repage "$shots/extension-gnome-limit.png"
  chosen "No limit" true && chosen "1 MB/s" false || fail "the submenu does not mark No limit alone: $(describe)"
  probe_says Press "1 MB/s" | grep -q true || fail "the probe found no 1 MB/s in the Limit submenu"
  limited() { [ "$(rule)" = "{\"app\": \"$app\", \"down\": 1000000, \"up\": 1000000}" ]; }
  within 10 limited || fail "1 MB/s made no rule of 1 MB/s both ways: $(rule)"
  open_menu_by_probe 150
  limited_row() {
    grep -qE '"kind":"row","name":"Backup Tool \(measured\), [^"]*, limited to 1[.,]0 MB/s, [0-9]+ s"' <<<"$(describe)" &&
      chosen "1 MB/s" true && chosen "No limit" false
  }
  within 20 limited_row || fail "the row does not say limited to 1.0 MB/s, with the preset marked: $(describe)"
  within 30 screen_still || fail "the screen did not settle with the row limited"
  shot menu.miff
  [ -n "$(changed_box unlimited.miff "$menu_region")" ] || fail "the limited row was drawn as the unlimited one"
  echo "the menu: Limit's 1 MB/s limited the app, and its row said so"
  choose "Pause on metered networks"
  pauses() { rule | grep -q '"metered": "pause"'; }
  within 10 pauses || fail "Pause on metered networks is not in the rule: $(rule)"
  open_menu_by_probe 150
  within 20 chosen "Pause on metered networks" true || fail "Pause on metered networks is not marked: $(describe)"
  choose "No limit"
  lifted() { [ "$(rule)" = "{\"app\": \"$app\", \"metered\": \"pause\"}" ]; }
  within 10 lifted || fail "No limit did not lift the speed alone: $(rule)"
  open_menu_by_probe 150
  unlimited_row() {
    ! grep -q 'limited to' <<<"$(describe)" && chosen "No limit" true && chosen "Pause on metered networks" true
  }
  within 20 unlimited_row || fail "the row still says limited, or No limit is not marked: $(describe)"
  choose "Pause on metered networks"
  no_rule() { [ "$(rule)" = null ]; }
  within 10 no_rule || fail "a second Pause on metered networks left a rule: $(rule)"
  echo "the menu: Pause on metered networks, No limit and the check box again made and took back the rule"

  # The day's data: a question takes the kernel's counts, and the session passes the system service's
  # UsageChanged on to the extension, which reads the day's usage again.
  netactivity usage --system >usage.txt 2>&1 || fail "netactivity usage failed: $(cat usage.txt)"
  grep -q "Backup Tool" usage.txt || fail "netactivity usage has no Backup Tool: $(cat usage.txt)"
  open_menu_by_probe 150
  usage_row='"kind":"row","name":"Backup Tool — [0-9.,]+ [kM]B, [0-9]+ % of today"'
  usage_shown() { grep -qE "$usage_row" <<<"$(describe)"; }
  within 20 usage_shown || fail "the menu has no row $usage_row: $(describe)"
  share_bar='"kind":"bar","name":"Backup Tool: [0-9]+ % of today","value":0\.[0-9]+'
  grep -qE "$share_bar" <<<"$(describe)" || fail "the menu has no bar $share_bar: $(describe)"
  within 30 screen_still || fail "the screen did not settle with the day's usage in the menu"
  shot menu.miff
  accent=$(convert menu.miff -crop "$menu_region" +repage -fuzz 12% -fill black +opaque "#3584e4" -fill white \
    -opaque "#3584e4" -colorspace gray -format "%[fx:round(mean*w*h)]" info:)
  [ "$accent" -ge 60 ] || fail "the share's bar has no fill in the accent colour ($accent pixels)"
  echo "the menu: Used today, Backup Tool's row and a bar of its share ($accent accent pixels)"
  [ -z "$shots" ] || convert menu.miff -crop "$shot_region" +repage "$shots/extension-gnome-usage.png"
  probe_says CloseMenu >/dev/null || fail "the probe did not close the menu"

  # The machine's data plan: root caps the loopback network at 1 MB a day, which the download has long passed.
  # Setting it takes the counts, the plan is used up at once, the system service says PlansChanged, the session
  # passes it on, and the extension reads the plans: one notification of its own, drawn as the Shell's banner.
  within 30 screen_still || fail "the screen did not settle with the menu closed"
  shot unplanned.miff
  # Banners, which the scenes keep off the top bar (start_shell), on for this one.
  gsettings set org.gnome.desktop.notifications show-banners true
  "$products/netactivity" plan lo --cap 1MB --period day --system >plan.txt 2>&1 ||
    fail "netactivity plan failed: $(cat plan.txt)"
  told='"title":"Data plan used up","body":"lo: [0-9.,]+ [kM]B of 1[.,]0 MB used; its apps are stopped until it resets on [0-9]+[. ]'
  plan_told() { probe_says Notifications | grep -qE "$told"; }
  within 20 plan_told || fail "no notification $told: $(probe_says Notifications)"
  banner_region=800x240+240+0
  banner_drawn() {
    local box width height
    box=$(changed_box unplanned.miff "$banner_region")
    [ -n "$box" ] || return 1
    read -r width height _ _ <<<"$box"
    [ "$width" -ge 200 ] && [ "$height" -ge 40 ]
  }
  within 20 banner_drawn || fail "no banner was drawn for the plan ($(changed_box unplanned.miff "$banner_region"))"
  shot banner.miff
  [ -z "$shots" ] || convert banner.miff -crop "$banner_region" +repage "$shots/extension-gnome-plan.png"
  gsettings set org.gnome.desktop.notifications show-banners false
  echo "the Shell told of the used-up data plan, in a banner: $(probe_says Notifications | grep -oE "$told")"
  probe_says Act Resume | grep -q true || fail "the notification has no Resume: $(probe_says Notifications)"
  plan_resumed() { grep -q "the data plan of lo is resumed until it resets" system.log; }
  within 20 plan_resumed || fail "Resume did not resume the plan: $(tail -5 system.log)"
  echo "Resume, on the notification, resumed the plan"
  # The plan heads the day's usage in the menu, with a bar of what it used of its cap: full, past it.
  open_menu_by_probe 150
  plan_row='"kind":"row","name":"lo: [0-9.,]+ [kM]B of 1[.,]0 MB \(100 %\)"'
  plan_bar='"kind":"bar","name":"lo: 100 % of its data plan","value":1'
  plan_shown() { grep -qE "$plan_row" <<<"$(describe)" && grep -qE "$plan_bar" <<<"$(describe)"; }
  within 20 plan_shown || fail "the menu has no plan's row $plan_row with its bar: $(describe)"
  plan_first() { describe | grep -oE '"name":"(lo: [^"]*|Used today[^"]*)"' | head -1 | grep -q '"name":"lo: '; }
  plan_first || fail "the plan's row does not head the day's usage: $(describe)"
  within 30 screen_still || fail "the screen did not settle with the plan in the menu"
  shot menu.miff
  planned_accent=$(convert menu.miff -crop "$menu_region" +repage -fuzz 12% -fill black +opaque "#3584e4" -fill white \
    -opaque "#3584e4" -colorspace gray -format "%[fx:round(mean*w*h)]" info:)
  [ "$planned_accent" -ge $((accent + 200)) ] ||
    fail "the plan's bar is not drawn full in the accent colour ($planned_accent accent pixels, $accent before)"
  [ -z "$shots" ] || convert menu.miff -crop "$shot_region" +repage "$shots/extension-gnome-plan-bar.png"
  echo "the menu: the plan heads Used today, with a full bar ($planned_accent accent pixels, $accent before)"
  probe_says CloseMenu >/dev/null || fail "the probe did not close the menu"

  if [ -n "$atspi" ]; then
    # The keyboard alone, and what a screen reader hears, through AT-SPI: Ctrl+Alt+Tab takes the keyboard to the top
    # bar, the arrows along it to the indicator, Down opens its menu, Tab reaches Pause, and Return presses it: Pause
    # becomes Resume on the same button, which keeps the keyboard; Return again resumes, and once more pauses.
    a11y() { python3 "$here/shell-atspi.py" "$@"; }
    focused_name() { a11y focused 2>/dev/null | cut -f2; }
    # Presses the keys (xdotool's words), and waits until the keyboard's focus is elsewhere, or its name changed.
    press() {
      local before
      before=$(a11y focused 2>/dev/null || true)
      xdotool "$@"
      focus_moved() { [ "$(a11y focused 2>/dev/null || true)" != "$before" ]; }
      within 5 focus_moved || fail "$* moved the keyboard nowhere from ${before:-nothing}"
    }
    # Held as a person holds them: the switcher takes the release of Ctrl and Alt as the choice of its first item.
    # A Shell slowed by a busy machine may take the release before its switcher is up, which chooses nothing: a
    # person would press them again.
    switched=
    for _ in 1 2 3; do
      before=$(a11y focused 2>/dev/null || true)
      xdotool keydown ctrl+alt key Tab sleep 0.3 keyup ctrl+alt
      focus_moved() { [ "$(a11y focused 2>/dev/null || true)" != "$before" ]; }
      within 5 focus_moved && switched=1 && break
    done
    [ -n "$switched" ] || fail "Ctrl+Alt+Tab, three times, moved the keyboard nowhere from ${before:-nothing}"
    on_indicator() { case "$(focused_name)" in "Network activity"*) return 0 ;; *) return 1 ;; esac; }
    for _ in $(seq 20); do
      within 1 on_indicator && break
      press key Right
    done
    within 2 on_indicator || fail "the arrows never reached the indicator: $(a11y focused)"
    # Down, as on every menu of the top bar, opens it with the keyboard in it.
    press key Down
    on_pause() { [ "$(focused_name)" = "Pause Backup Tool’s network" ]; }
    on_resume() { [ "$(focused_name)" = "Resume Backup Tool’s network" ]; }
    for _ in $(seq 6); do
      within 2 on_pause && break
      press key Tab
    done
    within 2 on_pause || fail "Tab never reached Pause: $(a11y focused)"
    rebuilt_before=$(rebuilds)
    press key Return
    within 20 paused_row || fail "Return on Pause did not pause the app: $(describe)"
    within 5 on_resume || fail "the keyboard left the row's button at Pause: $(a11y focused)"
    press key Return
    within 20 resumed_row || fail "Return on Resume did not resume the app: $(describe)"
    within 5 on_pause || fail "the keyboard left the row's button at Resume: $(a11y focused)"
    press key Return
    within 20 paused_row || fail "Return on Pause did not pause the app again: $(describe)"
    within 5 on_resume || fail "the keyboard left the row's button at the second Pause: $(a11y focused)"
    rebuilt=$(($(rebuilds) - rebuilt_before))
    [ "$rebuilt" = 0 ] || fail "the menu was built $rebuilt times while the keyboard paused and resumed"
    echo "the keyboard alone: the indicator, its menu, Pause, Resume and Pause again on the row's one button"
    # A row is for reading, and reads as enabled, not greyed.
    row_states=$(a11y states "Backup Tool (measured), ") || fail "AT-SPI has no row of Backup Tool"
    for state in sensitive enabled; do
      grep -qw "$state" <<<"$row_states" || fail "the row is not $state to a screen reader: $row_states"
    done
    echo "a screen reader reads the row as enabled: $row_states"
  fi

  kill -TERM "$download_pid"
  indicator_gone() { [ -z "$(changed_box before.miff "$panel_region")" ]; }
  within 20 indicator_gone || fail "the indicator stayed after the download ended"
  echo "the indicator left after the download"
  if [ -n "$atspi" ]; then
    # The keyboard was on Resume in the open menu when the indicator hid (the paused app's download ended, and its
    # activity with it): it is back on the top bar, on a button
    # that shows (not on the hidden indicator, nor on the bare stage, where a keyboard user is lost).
    on_top_bar() {
      local where
      where=$(a11y focused 2>/dev/null) || return 1
      case "$where" in *"Network activity"*|*"Backup Tool"*|"window"$'\t'*) return 1 ;; esac
      case "$where" in *button$'\t'*) ;; *) return 1 ;; esac
      [ "${where##*$'\t'}" = showing ]
    }
    within 10 on_top_bar || fail "the keyboard stayed on the hidden indicator: $(a11y focused)"
    echo "the keyboard went back to the top bar when the indicator hid: $(a11y focused | cut -f1,2)"
  fi

  kill -TERM "$shell_pid"
  shell_gone() { ! kill -0 "$shell_pid" 2>/dev/null; }
  within 30 shell_gone || fail "the Shell did not stop"
  blame=$(grep -E "Gjs-CRITICAL|Gjs-WARNING|JS ERROR|netactivity:|indicator\.js|$uuid" shell.log || true)
  [ -z "$blame" ] || fail "the Shell's log has lines of the extension: $blame"
  echo "PASS gnome-extension-traffic"
  exit 0
fi

start_shell_scene "$0" "$@"
