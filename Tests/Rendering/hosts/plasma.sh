# KDE Plasma 5.27: kded5 runs the StatusNotifierWatcher, plasmashell the panel (at the bottom) and its system tray.
# It wants a system bus.
host_tools="plasmashell kded5"
needs_system_bus=1
screen_size=1280x800x24
# The panel's right part, where the system tray is, away from the clock at its right end.
panel_region=500x44+600+756
menu_region=1280x740+0+0
shot_region=520x320+760+480
idle_spot="640 300"
# Plasma draws the icon of a disabled row (an activity's, for reading only) in this grey.
menu_icon_grey="srgb(185,186,186)"

host_start() {
  export XDG_CURRENT_DESKTOP=KDE KDE_FULL_SESSION=true KDE_SESSION_VERSION=5 QT_QPA_PLATFORM=xcb
  kded5 >kded.log 2>&1 &
  kded_pid=$!
  plasmashell --no-respawn >host.log 2>&1 &
  panel_pid=$!
}

# The watcher comes before the panel and the wallpaper are drawn.
host_ready() { watcher_ready && drawn_at 640 790 && drawn_at 640 300; }
host_alive() { kill -0 "$panel_pid" 2>/dev/null && kill -0 "$kded_pid" 2>/dev/null; }
host_stop() { kill -KILL "$panel_pid" "$kded_pid" 2>/dev/null; }

# Plasma's job tracker: the tray made the backup a job, which Plasma draws in a popup above the panel with its
# progress bar and a stop button (a solid dark square), and the notification applet's ring. The bar is filled as far
# as the job's percent; a click on the stop button asks the tray, which asks the run, to stop.
host_job_check() {
  local popup fill stop
  job_drawn() {
    popup=$(changed_box before.miff 1280x740+0+0)
    [ -n "$popup" ] || return 1
    read -r popup_w popup_h popup_x popup_y <<<"$popup"
    convert now.miff -crop "${popup_w}x${popup_h}+${popup_x}+${popup_y}" +repage job.miff
    # The stop button: a dark blob that fills its square box, 10 to 24 pixels wide.
    stop=$(convert job.miff -colorspace gray -threshold 30% -negate -define connected-components:verbose=true \
             -define connected-components:area-threshold=50 -connected-components 8 null: 2>/dev/null \
           | awk '$5 ~ /gray\(255\)/ { split($2, g, /[x+]/); if (g[1] == g[2] && g[1] >= 10 && g[1] <= 24 \
                   && $4 == g[1] * g[2]) { print g[1], g[3], g[4]; exit } }')
    [ -n "$stop" ]
  }
  host_job_problem="Plasma drew no job with a stop button above the panel"
  within 20 job_drawn || return 1
  read -r stop_size stop_x stop_y <<<"$stop"
  local row=$((stop_y + stop_size / 2))
  # Along the stop button's row: the bar's filled part (Breeze's light highlight) and its track (light grey).
  fill=$(convert job.miff -crop "${stop_x}x1+0+$row" +repage txt:- \
         | awk '/srgb\(156,213,242\)/ { f++ } /srgb\(227,227,229\)/ { t++ } END { if (f + t > 0) print int(100 * f / (f + t)) }')
  host_job_problem="Plasma's job bar is filled ${fill:-0} %, not about 45 %"
  [ -n "$fill" ] && [ "$fill" -ge 40 ] && [ "$fill" -le 50 ] || return 1
  echo "Plasma drew the job: ${popup_w}x${popup_h} at $popup_x,$popup_y, its bar filled $fill %"
  convert now.miff -crop 520x320+760+480 +repage "job-$host.png"
  xdotool mousemove $((popup_x + stop_x + stop_size / 2)) $((popup_y + row)) click 1
  await_run_stopped "Plasma's stop button"
  echo "stopped from Plasma's job tracker: the run exited with status 143"
}
