# lxqt-panel 1.2 with its statusnotifier plugin, one panel at the top, with the Adwaita icon theme.
host_tools="lxqt-panel"
screen_size=800x400x24
panel_region=800x32+0+0
menu_region=800x360+0+34
shot_region=400x200+400+0
idle_spot="100 300"
# Qt draws the icon of a disabled row (an activity's, for reading only) in this grey.
menu_icon_grey="srgb(173,173,173)"

host_start() {
  mkdir -p "$XDG_CONFIG_HOME/lxqt"
  cat >"$XDG_CONFIG_HOME/lxqt/panel.conf" <<'CONF'
[General]
__userfile__=true
panels=panel1

[panel1]
alignment=-1
desktop=0
hidable=false
panelSize=32
iconSize=22
lineCount=1
lockPanel=true
plugins=statusnotifier
position=Top
width=100
width-percent=true

[statusnotifier]
type=statusnotifier
alignment=Right
CONF
  cat >"$XDG_CONFIG_HOME/lxqt/lxqt.conf" <<'CONF'
[General]
__userfile__=true
icon_theme=Adwaita
CONF
  QT_QPA_PLATFORMTHEME=lxqt lxqt-panel >host.log 2>&1 &
  panel_pid=$!
}

host_ready() { watcher_ready; }
host_alive() { kill -0 "$panel_pid" 2>/dev/null; }
host_stop() { kill -KILL "$panel_pid" 2>/dev/null; }
