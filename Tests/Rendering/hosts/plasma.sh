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
