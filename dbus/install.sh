#!/usr/bin/env bash
# Installs netactivityd and its D-Bus files.
#   PREFIX   where to install (default /usr/local)
#   DESTDIR  staging root for packaging (default none)
#   BINARY   the netactivityd to install (default .build/release/netactivityd, built if missing)
# Files: $PREFIX/bin/netactivityd, the session activation file, the interface XML, the systemd user unit and
# the system-bus policy, each under $PREFIX/share or $PREFIX/lib as freedesktop tools expect.
set -euo pipefail
cd "$(dirname "$0")/.."
PREFIX=${PREFIX:-/usr/local}
DESTDIR=${DESTDIR:-}
BINARY=${BINARY:-.build/release/netactivityd}
if [ ! -x "$BINARY" ]; then
  swift build -c release --product netactivityd
fi
root="$DESTDIR$PREFIX"
fill() { sed "s|@bindir@|$PREFIX/bin|g" "$1"; }
install -Dm755 "$BINARY" "$root/bin/netactivityd"
install -d "$root/share/dbus-1/services" "$root/share/dbus-1/interfaces" "$root/share/dbus-1/system.d" \
  "$root/lib/systemd/user"
fill dbus/org.example.NetworkActivity.service >"$root/share/dbus-1/services/org.example.NetworkActivity.service"
fill dbus/netactivityd.service >"$root/lib/systemd/user/netactivityd.service"
install -m644 dbus/org.example.NetworkActivity.xml "$root/share/dbus-1/interfaces/"
install -m644 dbus/org.example.NetworkActivity.conf "$root/share/dbus-1/system.d/"
echo "installed netactivityd under $root"
