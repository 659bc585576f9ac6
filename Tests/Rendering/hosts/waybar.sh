# waybar 0.9 under sway 1.7, sway nested in the virtual X screen so that xdotool's clicks reach it: waybar's `tray`
# module (with its own StatusNotifierWatcher) and, beside it, the README's `custom/netactivity` module, verbatim.
# sway refuses to run as root: the session runs as nobody when the tests run as root, else as their own user.
host_tools="sway waybar"
session_user=$([ "$(id -u)" = 0 ] && echo nobody || id -un)
screen_size=1024x400x24
panel_region=512x32+512+0
module_region=512x32+0+0
menu_region=1024x360+0+34
shot_region=1024x200+0+0
idle_spot="300 300"
# waybar's tray menu takes no Escape.
menu_closes_on_click=1

host_start() {
  cat >sway.conf <<CONF
output X11-1 resolution 1024x400 position 0,0
default_border none
CONF
  # The README's module, as a user pastes it into the config object.
  local module
  module=$(awk '/^### waybar/ { section = 1 } section && /^```json/ { inside = 1; next } inside && /^```/ { exit }
                inside { print }' "$here/../../README.md")
  [ -n "$module" ] || { echo "no waybar snippet in the README" >&2; return 1; }
  cat >waybar.json <<CONF
{
  "layer": "top", "position": "top", "height": 32,
  "modules-left": ["custom/netactivity"], "modules-right": ["tray"],
  "tray": { "icon-size": 22, "spacing": 4 },
  $module
}
CONF
  cat >waybar.css <<'CSS'
* { font-family: "DejaVu Sans"; font-size: 16px; }
window#waybar { background: #303030; color: #ffffff; }
CSS
  mkdir -p bin
  ln -sf "$products/netactivity" bin/netactivity
  WLR_BACKENDS=x11 WLR_RENDERER=pixman WLR_X11_OUTPUTS=1 WLR_LIBINPUT_NO_DEVICES=1 sway -c sway.conf >sway.log 2>&1 &
  sway_pid=$!
  within 20 test -S "$XDG_RUNTIME_DIR/wayland-1" || { echo "sway did not start" >&2; return 1; }
  WAYLAND_DISPLAY=wayland-1 PATH="$work/bin:$PATH" waybar -c waybar.json -s waybar.css >host.log 2>&1 &
  panel_pid=$!
}

host_ready() { watcher_ready; }
host_alive() { kill -0 "$panel_pid" 2>/dev/null && kill -0 "$sway_pid" 2>/dev/null; }
host_stop() { kill -KILL "$panel_pid" "$sway_pid" 2>/dev/null; }

# The README's module shows the count while active and hides when idle.
host_active_check() {
  host_active_problem="the README's waybar module did not show while active"
  module_shown() { [ -n "$(changed_box before.miff "$module_region")" ]; }
  within 10 module_shown
}
# With the backup at 45 %, the module draws the overall percent after the count: its text is as wide as "⇅ 2 ·
# 45 %" in the module's font, and far wider than the count alone.
host_progress_check() {
  local box count_only with_percent
  count_only=$(convert -font DejaVu-Sans -pointsize 16 label:"⇅ 2" -trim -format %w info:)
  with_percent=$(convert -font DejaVu-Sans -pointsize 16 label:"⇅ 2 · 45 %" -trim -format %w info:)
  module_with_percent() {
    box=$(changed_box before.miff "$module_region")
    [ -n "$box" ] && [ "${box%% *}" -ge $((with_percent * 8 / 10)) ] && [ "${box%% *}" -le $((with_percent * 13 / 10)) ]
  }
  within 10 module_with_percent || { host_progress_problem="waybar's module did not draw the percent: it is \
${box%% *} px wide where \"⇅ 2\" is $count_only px and \"⇅ 2 · 45 %\" $with_percent px"; return 1; }
  echo "waybar's module drew the percent: ${box%% *} px wide, as \"⇅ 2 · 45 %\" ($with_percent px; the count alone: $count_only px)"
}
host_idle_check() {
  host_idle_problem="the README's waybar module did not hide when idle: $(changed_box before.miff "$module_region")"
  module_hidden() { [ -z "$(changed_box before.miff "$module_region")" ]; }
  within 10 module_hidden
}
