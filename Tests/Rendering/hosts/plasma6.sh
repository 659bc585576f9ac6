# KDE Plasma 6 (Debian 13's 6.3, from its root: debian-root.sh trixie-plasma): kded6 runs the StatusNotifierWatcher,
# kwin_x11 manages the windows, plasmashell draws the panel (at the bottom) and its system tray. Plasma 5's recipe
# (its screen, its regions, its readiness, a system bus), with Plasma 6's programs, icon and job.
source "$here/hosts/plasma.sh"
host_tools="plasmashell kded6 kwin_x11"
# Debian 13's Plasma since late 2026 draws the tray's items further right, beside its date: our icon ends near
# x=1120, past Plasma 5's region; the region ends just before the tray's arrow, which moves as items come.
panel_region=524x44+600+756

# Plasma 6 draws the jobs' ring in its notifications' icon, left of the items: the icon is the rightmost part of what
# changed in the panel.
icon_box() {
  shot now.miff
  convert before.miff now.miff -compose difference -composite -crop "$panel_region" +repage -colorspace gray \
    -threshold 12% -morphology Dilate Square:2 -define connected-components:verbose=true \
    -define connected-components:area-threshold=20 -connected-components 8 null: 2>/dev/null |
    awk -v region="$panel_region" '
      /gray\(255\)|gray\(100%\)|white/ { split($2, g, /[x+]/)
        if (g[3] + g[1] > right) { right = g[3] + g[1]; box = g[1] " " g[2] " " g[3] " " g[4] } }
      END { if (box == "") exit; split(region, r, /[x+]/); split(box, b, " "); print b[1], b[2], r[3] + b[3], r[4] + b[4] }'
}

host_start() {
  export XDG_CURRENT_DESKTOP=KDE KDE_FULL_SESSION=true KDE_SESSION_VERSION=6 QT_QPA_PLATFORM=xcb
  kded6 >kded.log 2>&1 &
  kded_pid=$!
  kwin_x11 >kwin.log 2>&1 &
  kwin_pid=$!
  plasmashell --no-respawn >host.log 2>&1 &
  panel_pid=$!
}

host_alive() { kill -0 "$panel_pid" 2>/dev/null && kill -0 "$kded_pid" 2>/dev/null && kill -0 "$kwin_pid" 2>/dev/null; }
host_stop() { kill -KILL "$panel_pid" "$kded_pid" "$kwin_pid" 2>/dev/null; }

# Plasma's job tracker: the tray made the backup a job, which Plasma 6 draws in a popup above the panel with the
# application's name, a progress bar and a Cancel button. The bar's fill (Breeze's light highlight) reaches about 45 %
# of its track, which is drawn translucent: the track is the run of pixels after the fill that differ from the popup
# a few rows above. A click on Cancel asks the tray, which asks the run, to stop.
host_job_check() {
  local popup fill cancel
  job_drawn() {
    popup=$(changed_box before.miff 1280x740+0+0)
    [ -n "$popup" ] || return 1
    read -r popup_w popup_h popup_x popup_y <<<"$popup"
    convert now.miff -crop "${popup_w}x${popup_h}+${popup_x}+${popup_y}" +repage job.miff
    fill=$(largest_patch job.miff "srgb(156,213,242)" 2%)
    # Its buttons are near-white boxes; Cancel is the rightmost.
    cancel=$(convert job.miff -fuzz 1% -fill black +opaque "srgb(252,252,252)" -fill white -opaque "srgb(252,252,252)" \
               -colorspace gray -threshold 50% -define connected-components:verbose=true -connected-components 8 null: \
               2>/dev/null | awk '/gray\(255\)|gray\(100%\)|white/ { split($2, g, /[x+]/)
                 if (g[1] >= 50 && g[1] <= 140 && g[2] >= 20 && g[2] <= 44 && g[3] > right) { right = g[3]; box = $2 } }
                 END { print box }')
    [ -n "$fill" ] && [ -n "$cancel" ]
  }
  host_job_problem="Plasma drew no job with a bar and a Cancel button above the panel"
  within 20 job_drawn || return 1
  local fill_size=${fill%%+*} fill_offset=${fill#*+}
  local fill_w=${fill_size%x*} fill_h=${fill_size#*x} fill_x=${fill_offset%+*} fill_y=${fill_offset#*+}
  local row=$((fill_y + fill_h / 2)) above=$((fill_y - 6))
  local bar
  bar=$(paste <(convert job.miff -crop "${popup_w}x1+0+$row" +repage -depth 8 txt:- | awk 'NR > 1 { print $2 }') \
              <(convert job.miff -crop "${popup_w}x1+0+$above" +repage -depth 8 txt:- | awk 'NR > 1 { print $2 }') |
        awk -v start="$fill_x" -v fill_end=$((fill_x + fill_w)) '
          { gsub(/[()]/, ""); split($1, a, ","); split($2, b, ",")
            differs[NR - 1] = (a[1] - b[1])^2 + (a[2] - b[2])^2 + (a[3] - b[3])^2 > 10 }
          END { for (x = fill_end; differs[x]; x++) ; print x - start }')
  local percent=$((fill_w * 100 / bar))
  host_job_problem="Plasma's job bar is filled $fill_w of $bar pixels ($percent %), not about 45 %"
  [ "$percent" -ge 38 ] && [ "$percent" -le 52 ] || return 1
  echo "Plasma drew the job: ${popup_w}x${popup_h} at $popup_x,$popup_y, its bar filled $percent %"
  convert now.miff -crop 520x320+760+480 +repage "job-$host.png"
  local cancel_size=${cancel%%+*} cancel_offset=${cancel#*+}
  xdotool mousemove $((popup_x + ${cancel_offset%+*} + ${cancel_size%x*} / 2)) \
    $((popup_y + ${cancel_offset#*+} + ${cancel_size#*x} / 2)) click 1
  await_run_stopped "Plasma's Cancel button"
  echo "stopped from Plasma's job tracker: the run exited with status 143"
}

# The bounding box (WxH+X+Y) of the largest patch of COLOUR in FILE, within FUZZ.
largest_patch() {
  convert "$1" -fuzz "$3" -fill black +opaque "$2" -fill white -opaque "$2" -colorspace gray -threshold 50% \
    -define connected-components:verbose=true -connected-components 8 null: 2>/dev/null |
    awk '/gray\(255\)|gray\(100%\)|white/ { if ($4 > best) { best = $4; box = $2 } } END { print box }'
}
