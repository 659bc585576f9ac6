#!/usr/bin/env bash
# Installs netactivityd, the netactivity command, the netactivity-tray icon and their D-Bus and systemd files.
#   PREFIX    where to install (default /usr/local)
#   DESTDIR   staging root for packaging (default none)
#   PRODUCTS  the build folder to install from (default .build/release, built if the programs are missing)
# Files: $PREFIX/bin/netactivityd, netactivity and netactivity-tray, the session activation file, the interface
# XML, the systemd user units and the system-bus policy, each under $PREFIX/share or $PREFIX/lib as freedesktop
# tools expect.
set -euo pipefail
cd "$(dirname "$0")/.."
PREFIX=${PREFIX:-/usr/local}
DESTDIR=${DESTDIR:-}
PRODUCTS=${PRODUCTS:-.build/release}
programs=(netactivityd netactivity netactivity-tray)
for program in "${programs[@]}"; do
  [ -x "$PRODUCTS/$program" ] || swift build -c release --product "$program"
done
root="$DESTDIR$PREFIX"
fill() { sed "s|@bindir@|$PREFIX/bin|g" "$1"; }
install -Dm755 "${programs[@]/#/$PRODUCTS/}" -t "$root/bin"
install -d "$root/share/dbus-1/services" "$root/share/dbus-1/interfaces" "$root/share/dbus-1/system.d" \
  "$root/lib/systemd/user"
fill dbus/org.example.NetworkActivity.service >"$root/share/dbus-1/services/org.example.NetworkActivity.service"
fill dbus/netactivityd.service >"$root/lib/systemd/user/netactivityd.service"
fill dbus/netactivity-tray.service >"$root/lib/systemd/user/netactivity-tray.service"
install -m644 dbus/org.example.NetworkActivity.xml "$root/share/dbus-1/interfaces/"
install -m644 dbus/org.example.NetworkActivity.conf "$root/share/dbus-1/system.d/"
echo "installed ${programs[*]} under $root"
