#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs what is missing (libdbus-1-dev), builds netactivityd, netactivity and netactivity-tray into
# .build/release, and runs netactivityd in the foreground: on your session bus, or, when there is none (a console,
# a container, CI), on a private bus that it starts and whose address it prints. Arguments are passed to
# netactivityd (e.g. --show-delay 0). Ctrl-C stops it.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! pkg-config --exists dbus-1 2>/dev/null || ! command -v dbus-daemon >/dev/null; then
  sudo=$([ "$(id -u)" = 0 ] || echo sudo)
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq libdbus-1-dev pkg-config dbus-daemon dbus-bin
fi
products=$(bash packaging/build-release.sh)

if [ -n "${DBUS_SESSION_BUS_ADDRESS:-}" ] &&
   timeout 5 dbus-send --session --dest=org.freedesktop.DBus --print-reply / org.freedesktop.DBus.GetId >/dev/null 2>&1
then
  echo "netactivityd: using your session bus" >&2
else
  dir=$(mktemp -d /tmp/netactivity-bus.XXXXXX)
  { read -r address; read -r bus_pid; } < <(dbus-daemon --session --fork --print-address=1 --print-pid=1 \
    --address="unix:path=$dir/bus")
  trap 'kill "$bus_pid" 2>/dev/null; rm -rf "$dir"' EXIT
  export DBUS_SESSION_BUS_ADDRESS=$address
  echo "netactivityd: no session bus; started a private one. In another shell:" >&2
  echo "  export DBUS_SESSION_BUS_ADDRESS='$address'" >&2
fi
"$products/netactivityd" "$@"
