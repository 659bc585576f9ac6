# Shared by the rendering scripts: a virtual screen with its own buses, screenshots and the comparison of pixels.
# Sourced, not run.

# Runs "$@" until it succeeds, for at most $1 seconds.
within() {
  local seconds=$1; shift
  local deadline=$((SECONDS + seconds))
  until "$@"; do
    [ "$SECONDS" -lt "$deadline" ] || return 1
    sleep 0.1
  done
}

# A screenshot of the whole virtual screen, to a file named *.miff: ImageMagick's own format, uncompressed, takes
# 0.03 s where a PNG of Plasma's screen took 1.2 s (most of a host's run). Only the pictures kept are PNGs.
shot() { import -window root "$1" 2>/dev/null; }

# Prints "W H X Y" (screen coordinates) of the box around the pixels of REGION (WxH+X+Y) that differ between
# REFERENCE and the screen now, by more than a slight shade (THRESHOLD, 12 % unless given); nothing when fewer than 20
# pixels differ.
changed_box() {
  local reference=$1 region=$2 threshold=${3:-12%} count geometry
  shot now.miff
  read -r count geometry < <(convert "$reference" now.miff -compose difference -composite -crop "$region" +repage \
    -colorspace gray -threshold "$threshold" -format "%[fx:round(mean*w*h)] %@\n" info: 2>/dev/null)
  [ "$count" -ge 20 ] || return 0
  local region_x=${region#*+}; region_x=${region_x%+*}
  local region_y=${region##*+}
  local size=${geometry%%+*} offset=${geometry#*+}
  echo "${size%x*} ${size#*x} $((region_x + ${offset%+*})) $((region_y + ${offset#*+}))"
}

# Whether the pixel at X Y of the screen now is not black: something was drawn there.
drawn_at() {
  shot drawn.miff
  [ "$(convert drawn.miff -format "%[fx:p{$1,$2}.r+p{$1,$2}.g+p{$1,$2}.b > 0.05]" info:)" = 1 ]
}

# Whether the screen is the same in two shots 300 ms apart: nothing is being drawn.
screen_still() {
  shot still-1.miff; sleep 0.3; shot still-2.miff
  # ImageMagick 7.1.2 (Debian testing) prints the count and then its share, "0 (0)".
  local differing
  differing=$(compare -metric AE still-1.miff still-2.miff null: 2>&1 || true)
  [ "${differing%% *}" = 0 ]
}

# Whether a StatusNotifierWatcher is on the session bus with a host registered.
watcher_ready() {
  gdbus call --session --dest org.kde.StatusNotifierWatcher --object-path /StatusNotifierWatcher \
    --method org.freedesktop.DBus.Properties.Get org.kde.StatusNotifierWatcher IsStatusNotifierHostRegistered \
    2>/dev/null | grep -q true
}

# Starts dunst, with the dunstrc already written to $XDG_CONFIG_HOME/dunst, on the session bus and a monitor of its
# Notify calls in monitor.log, then the service; returns non-zero, saying which, when either does not come up.
start_dunst_and_service() {
  local products=$1
  dbus-monitor --session "interface=org.freedesktop.Notifications,member=Notify" >monitor.log 2>&1 &
  dunst >dunst.log 2>&1 &
  # Asked of the bus, not of the name, which the bus would answer by starting a second dunst.
  server_up() {
    gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
      --method org.freedesktop.DBus.NameHasOwner org.freedesktop.Notifications 2>/dev/null | grep -q true
  }
  within 20 server_up || { echo "dunst did not come onto the bus" >&2; return 1; }
  "$products/netactivityd" --show-delay 0 --hide-delay 0 --min-visible 0 2>netactivityd.log &
  within 10 "$products/netactivity" status >/dev/null || { echo "the service did not start" >&2; return 1; }
}

# Starts Xvfb with a screen of SIZE (WxHxD), or none when SIZE is `none` (a Wayland compositor draws its own), and,
# when the host needs one ($needs_system_bus), a stand-in system bus; sets $work, a scratch folder that an EXIT trap
# removes with everything started here. The environment names only these: HOME and the XDG folders are in $work, so
# that nothing of the machine's desktop is read or written.
open_screen() {
  work=$(mktemp -d /tmp/netactivity-screen.XXXXXX)
  chmod 755 "$work"
  screen_pids=()
  trap close_screen EXIT
  # -noreset: the server would reset each time its last client leaves, such as a screenshot taken while a panel
  # connects, and the panel would meet a server going away.
  if [ "$1" = none ]; then
    unset DISPLAY
  else
    Xvfb -displayfd 3 -screen 0 "$1" -nolisten tcp -noreset 3>"$work/display" 2>"$work/xvfb.log" &
    screen_pids+=($!)
    within 10 test -s "$work/display" || { echo "Xvfb did not start" >&2; exit 1; }
    export DISPLAY=":$(cat "$work/display")"
  fi
  if [ "${needs_system_bus:-0}" = 1 ]; then
    cat >"$work/system.conf" <<CONF
<busconfig><type>system</type><listen>unix:path=$work/system_bus</listen><auth>EXTERNAL</auth>
<policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/>
<allow own="*"/><allow user="*"/></policy></busconfig>
CONF
    dbus-daemon --config-file="$work/system.conf" --nofork --print-address=3 3>"$work/system.address" \
      2>"$work/system-bus.log" &
    screen_pids+=($!)
    within 10 test -s "$work/system.address" || { echo "the system bus did not start" >&2; exit 1; }
    export DBUS_SYSTEM_BUS_ADDRESS=$(head -1 "$work/system.address")
  else
    # No system bus at all: nothing here may reach the machine's.
    export DBUS_SYSTEM_BUS_ADDRESS="unix:path=$work/no-system-bus"
  fi
  mkdir -p "$work/home" "$work/run"
  chmod 700 "$work/run"
  unset DBUS_SESSION_BUS_ADDRESS SESSION_MANAGER WAYLAND_DISPLAY
  export HOME=$work/home XDG_CONFIG_HOME=$work/home/.config XDG_DATA_HOME=$work/home/.local/share \
         XDG_CACHE_HOME=$work/home/.cache XDG_RUNTIME_DIR=$work/run NO_AT_BRIDGE=1 LC_ALL=C.UTF-8
}

close_screen() {
  for pid in "${screen_pids[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
  # Whatever a host left behind (dconf-service, Plasma's helpers) has the scratch folder in its environment.
  local environ pid
  for environ in /proc/[0-9]*/environ; do
    pid=${environ#/proc/}; pid=${pid%/environ}
    [ "$pid" != $$ ] && grep -qs "$work/" "$environ" && kill -KILL "$pid" 2>/dev/null || true
  done
  wait 2>/dev/null || true
  rm -rf "$work"
}

# Runs "$@" with a new private session bus, as the user $session_user (the tests' own by default; sway refuses root,
# so as root its session runs as nobody, which then owns $work). The bus is the machine's session configuration (so that it starts
# xfconfd, dconf or dunst when asked, as a desktop's bus does) on a socket of its own. Not dbus-run-session: a test
# runner may start these scripts with SIGTERM blocked, which the bus would inherit and outlive its session by; this
# bus is killed with SIGKILL, and the services it started leave with it.
exec_session() {
  local as=()
  if [ "${session_user:-root}" != root ] && [ "${session_user}" != "$(id -un)" ]; then
    chown -R "$session_user" "$work"
    as=(setpriv --reuid="$session_user" --regid="$(id -gn "$session_user")" --clear-groups)
  fi
  "${as[@]}" dbus-daemon --session --address="unix:path=$work/session_bus" --nofork --print-address=3 \
    3>"$work/session.address" 2>"$work/session-bus.log" &
  screen_pids+=($!)
  within 10 test -s "$work/session.address" || { echo "the session bus did not start" >&2; exit 1; }
  local status=0
  DBUS_SESSION_BUS_ADDRESS=$(head -1 "$work/session.address") "${as[@]}" "$@" "$work" || status=$?
  return "$status"
}
