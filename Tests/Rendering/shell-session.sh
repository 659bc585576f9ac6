# Shared by shell-extension.sh and shell-extension-language.sh: GNOME Shell on X11 or headless Wayland with the
# tests' own probe extension (shell-probe/), which reads the project's extension's menu over D-Bus where there is no
# pointer. Sourced, not run, after screen.sh, with `here` set. Each script runs twice: as
# `SCRIPT SESSION PRODUCTS EXTENSION [SHOTS]`, which opens a screen and buses of its own (start_shell_scene), and
# again inside them with --inside (enter_shell_scene).

uuid=netactivity@example.org
# The top bar's right part, away from the clock; the menu under it; the part of the screen kept as a picture.
panel_region=480x32+800+0
menu_region=900x500+380+30
shot_region=560x300+720+0

# SCRIPT SESSION PRODUCTS EXTENSION [SHOTS]: runs `SCRIPT --inside …` in a session of its own.
start_shell_scene() {
  local script=$1
  session=$2 products=$(cd "$3" && pwd) extension=$(cd "$(dirname "$4")" && pwd)/$(basename "$4")
  shots=${5:+$(cd "$5" && pwd)}
  needs_system_bus=1
  if [ "$session" = wayland ]; then open_screen none; else open_screen 1280x800x24; fi
  exec_session bash "$script" --inside "$session" "$products" "$extension" "${shots:-}"
}

# SCENE SESSION PRODUCTS EXTENSION SHOTS WORK: inside the session, in WORK, with the programs of PRODUCTS first on
# PATH; SCENE names a failure and its picture (failed-SCENE.png). Whatever the scene started is killed at its exit.
enter_shell_scene() {
  scene=$1 session=$2 products=$3 extension=$4 shots=$5 work=$6
  export PATH="$products:$PATH"
  cd "$work"
  shell_pid=
  trap 'kill -KILL "$shell_pid" 2>/dev/null || true; for pid in $(jobs -p); do kill -KILL "$pid" 2>/dev/null || true; done' EXIT
  shell_version=$(gnome-shell --version | sed 's/[^0-9]*\([0-9]*\).*/\1/')
  user_extensions=$XDG_DATA_HOME/gnome-shell/extensions
  if [ "$session" = wayland ]; then
    # No X screen to read: the Shell takes the pictures itself.
    shot() {
      local png=$work/$(basename "${1%.miff}").png
      python3 "$here/shell-screenshot.py" "$png" && convert "$png" -alpha off "$1" && rm -f "$png"
    }
  fi
}

fail() {
  echo "FAIL ($scene, GNOME $shell_version, $session): $*" >&2
  for log in "$work"/*.log; do echo "--- $log" >&2; tail -25 "$log" >&2; done
  shot "$work/failed.miff" || true
  [ -z "$shots" ] || convert "$work/failed.miff" "$shots/failed-$scene.png" || true
  exit 1
}

# The tests' probe, for what has no pointer or no pixels: the menu's accessible names, a menu opened and a button
# pressed on Wayland.
install_probe() {
  local probe=$user_extensions/netactivity-probe@example.org
  mkdir -p "$probe"
  printf '{"uuid": "netactivity-probe@example.org", "name": "probe", "description": "the tests'"'"' probe", "shell-version": ["%s"]}\n' \
    "$shell_version" >"$probe/metadata.json"
  if [ "$shell_version" -ge 45 ]; then
    cp "$here/shell-probe/extension-45.js" "$probe/extension.js"
    { cat "$here/shell-probe/probe.js"; printf '\nexport {serve};\n'; } >"$probe/probe.js"
  else
    cp "$here/shell-probe/extension-43.js" "$probe/extension.js"
    cp "$here/shell-probe/probe.js" "$probe/probe.js"
  fi
}

# Starts a fresh session's GNOME Shell (shell_pid, its log shell.log) with the extensions ENABLED (a GVariant list)
# and nothing else: no welcome dialog, no notification banners over the top bar.
start_shell() {
  gsettings set org.gnome.shell enabled-extensions "$1"
  gsettings set org.gnome.shell disable-user-extensions false
  gsettings set org.gnome.shell welcome-dialog-last-shown-version '999'
  gsettings set org.gnome.desktop.notifications show-banners false
  export SHELL_DEBUG=backtrace-warnings
  if [ "$session" = wayland ]; then
    env -u DISPLAY gnome-shell --headless --wayland --no-x11 --virtual-monitor 1280x800 >shell.log 2>&1 &
  else
    gnome-shell --x11 --sm-disable >shell.log 2>&1 &
  fi
  shell_pid=$!
}

shell_call() { gdbus call --session --dest org.gnome.Shell "$@"; }
overview_closed() {
  shell_call --object-path /org/gnome/Shell --method org.freedesktop.DBus.Properties.Set org.gnome.Shell \
    OverviewActive "<false>" >/dev/null 2>&1
  shell_call --object-path /org/gnome/Shell --method org.freedesktop.DBus.Properties.Get org.gnome.Shell \
    OverviewActive 2>/dev/null | grep -q false
}
name_owned() {
  gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
    --method org.freedesktop.DBus.NameHasOwner "$1" 2>/dev/null | grep -q true
}
probe_says() { gdbus call --session --dest org.example.NetworkActivityProbe --object-path /org/example/NetworkActivityProbe \
  --method "org.example.NetworkActivityProbe.$1" "${@:2}"; }
describe() { probe_says Describe | sed -e "s/^('//" -e "s/',)$//"; }
# How often the extension's menu was built, as the probe counted.
rebuilds() { describe | grep -oE '"rebuilds":[0-9]+' | cut -d: -f2; }
shell_ready() { overview_closed && drawn_at 640 400; }

# Opens the extension's menu through the probe, and waits until it is drawn (at least WIDTH, 200 unless given, by 30
# pixels, against active.miff, the screen with the indicator shown) and still: its picture is menu.miff.
open_menu_by_probe() {
  local min_width=${1:-200}
  probe_says OpenMenu >/dev/null || fail "the probe did not open the menu"
  menu_open() { describe | grep -q '"open":true'; }
  within 10 menu_open || fail "the menu did not open: $(describe)"
  menu_shown() {
    local menu
    menu=$(changed_box active.miff "$menu_region")
    [ -n "$menu" ] || return 1
    read -r menu_w menu_h _ _ <<<"$menu"
    [ "$menu_h" -ge 30 ] && [ "$menu_w" -ge "$min_width" ]
  }
  within 15 menu_shown || fail "the menu was not drawn: $(changed_box active.miff "$menu_region")"
  within 30 screen_still || fail "the screen did not settle with the menu open"
  shot menu.miff
}
