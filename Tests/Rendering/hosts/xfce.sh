# xfce4-panel 4.18 with its systray plugin (which hosts StatusNotifierItems in its own wrapper-2.0 process), one
# panel at the top. xfconfd, which the panel reads its settings from, is started by the session bus.
host_tools="xfce4-panel"
screen_size=800x400x24
panel_region=800x32+0+0
menu_region=800x360+0+34
shot_region=400x200+0+0
idle_spot="100 300"
# A click on the menu's Stop row stops the run (tray-in-a-host.sh).
stop_from_menu=1

host_start() {
  local channel=$XDG_CONFIG_HOME/xfce4/xfconf/xfce-perchannel-xml
  mkdir -p "$channel"
  cat >"$channel/xfce4-panel.xml" <<'XML'
<?xml version="1.0" encoding="UTF-8"?>
<channel name="xfce4-panel" version="1.0">
  <property name="configver" type="int" value="2"/>
  <property name="panels" type="array">
    <value type="int" value="1"/>
    <property name="panel-1" type="empty">
      <property name="position" type="string" value="p=6;x=0;y=0"/>
      <property name="length" type="uint" value="100"/>
      <property name="position-locked" type="bool" value="true"/>
      <property name="size" type="uint" value="32"/>
      <property name="plugin-ids" type="array"><value type="int" value="1"/></property>
    </property>
  </property>
  <property name="plugins" type="empty">
    <property name="plugin-1" type="string" value="systray"/>
  </property>
</channel>
XML
  xfce4-panel --disable-wm-check >host.log 2>&1 &
  panel_pid=$!
}

host_ready() { watcher_ready; }
host_alive() { kill -0 "$panel_pid" 2>/dev/null && pgrep -P "$panel_pid" -f wrapper-2.0 >/dev/null; }
# Not `xfce4-panel --quit`, which waits for a panel over the bus: the plugin's wrapper first, then the panel.
host_stop() { pkill -KILL -P "$panel_pid" 2>/dev/null; kill -KILL "$panel_pid" 2>/dev/null; }
