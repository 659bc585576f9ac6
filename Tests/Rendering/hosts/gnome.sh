# GNOME Shell 43 on X11 with the AppIndicator extension (Ubuntu's default), which hosts StatusNotifierItems in the
# top bar. It wants a system bus; its settings go to a private dconf through the session bus.
host_tools="gnome-shell gsettings"
needs_system_bus=1
screen_size=1280x800x24
# The top bar's right part, away from the clock in the middle, which changes by the minute.
panel_region=480x32+800+0
menu_region=1280x700+0+40
shot_region=440x240+840+0
idle_spot="640 500"

host_start() {
  gsettings set org.gnome.shell enabled-extensions "['ubuntu-appindicators@ubuntu.com']"
  gsettings set org.gnome.shell disable-user-extensions false
  gsettings set org.gnome.shell welcome-dialog-last-shown-version '999'
  # Banners (such as "Screen Lock disabled" without GDM) would cover the menu's region for a while.
  gsettings set org.gnome.desktop.notifications show-banners false
  G_MESSAGES_DEBUG=${TRAY_DIAGNOSE:+all} gnome-shell --x11 --sm-disable >host.log 2>&1 &
  panel_pid=$!
  dbus-monitor --session "interface=org.kde.StatusNotifierWatcher" >watcher.log 2>&1 &
}

# The watcher comes before the shell draws, and the shell starts in the overview, which the test's Escape key would
# close: ready once the overview is closed (asked over the bus, as often as it takes) and the background (blue) is on
# screen.
host_ready() { watcher_ready && overview_closed && drawn_at 640 500; }
overview_closed() {
  gdbus call --session --dest org.gnome.Shell --object-path /org/gnome/Shell \
    --method org.freedesktop.DBus.Properties.Set org.gnome.Shell OverviewActive "<false>" >/dev/null 2>&1
  gdbus call --session --dest org.gnome.Shell --object-path /org/gnome/Shell \
    --method org.freedesktop.DBus.Properties.Get org.gnome.Shell OverviewActive 2>/dev/null | grep -q false
}
host_alive() { kill -0 "$panel_pid" 2>/dev/null; }
host_stop() { kill -KILL "$panel_pid" 2>/dev/null; }

# The extension keeps an item only if it can read Id and Menu, again a second after the registration; by a race of
# its own it sometimes drops the item then, and the tray registers it again. Settled: the watcher's last word on
# items is a registration 2 s old or more, and the item is among its registered items.
host_active_check() {
  within 15 item_settled && return 0
  # Its words, once it has had its say.
  host_active_problem="the AppIndicator extension did not keep the item: $(grep -i "initalizing proxy\|has no property\|basic properties\|may not respond\|unhandled promise\|JS ERROR" host.log | tail -4)"
  return 1
}
item_settled() {
  local last
  last=$(grep -o "time=[0-9.]* .*member=StatusNotifierItem[A-Za-z]*" watcher.log | tail -1)
  [[ $last == *member=StatusNotifierItemRegistered ]] || return 1
  last=${last#time=}; last=${last%% *}
  awk -v then="$last" -v now="$(date +%s.%N)" 'BEGIN { exit !(now - then >= 2) }' || return 1
  gdbus call --session --dest org.kde.StatusNotifierWatcher --object-path /StatusNotifierWatcher \
    --method org.freedesktop.DBus.Properties.Get org.kde.StatusNotifierWatcher RegisteredStatusNotifierItems \
    | grep -q "org.kde.StatusNotifierItem-"
}
