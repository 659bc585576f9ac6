# gtk-sni-tray-standalone: a tray strip at the top of the screen, with its own StatusNotifierWatcher; with
# TRAY_DIAGNOSE set, it logs every item it adds and every update it sends.
host_tools=gtk-sni-tray-standalone
screen_size=800x400x24
panel_region=800x32+0+0
menu_region=800x360+0+34
shot_region=400x200+0+0
idle_spot="700 300"
# A click on the menu's Stop row stops the run (tray-in-a-host.sh).
stop_from_menu=1

host_start() {
  export GSETTINGS_BACKEND=memory
  panel_starts=0
  start_panel
}

# It may register its host before its own watcher serves, and then exit; a session would start it again.
start_panel() {
  gtk-sni-tray-standalone ${TRAY_DIAGNOSE:+--log-level INFO} --watcher --top --size 32 --color "#303030" >>host.log 2>&1 &
  panel_pid=$!
  panel_starts=$((panel_starts + 1))
}

host_ready() {
  if ! kill -0 "$panel_pid" 2>/dev/null && [ "$panel_starts" -lt 5 ]; then start_panel; fi
  watcher_ready
}

host_alive() { kill -0 "$panel_pid" 2>/dev/null; }
host_stop() { kill "$panel_pid" 2>/dev/null; }
