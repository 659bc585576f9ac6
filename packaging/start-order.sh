#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The daemon's functions that a start runs, for the release build's link order: packaging/build-release.sh runs
# it on the daemon it has just linked and links the programs again in that order. The kernel maps a program's code 64 KiB at a time around
# what runs; a start runs about 400 KiB of code spread over the whole 5 MB, the standard library's between the
# project's, so that a daemon which has only started holds almost all of it. Laid out together, what a start runs
# fills fewer such windows: 1.6 MB less resident, idle (docs/performance.md, "The code a start runs, together").
#
#   bash packaging/start-order.sh DAEMON    prints the functions of DAEMON that a start runs, one per line, sorted
#
# A start here is what the benchmark measures idle, and a little more: the daemon on a private bus with a state
# folder of its own, until it owns its name; one Begin from dbus-send, whose caller then leaves; a stop by SIGTERM.
# Callgrind (valgrind) runs it and names every function that ran. DebianPackageTests checks that what a start of
# the release's daemon runs lies together.
set -euo pipefail

functions_run_at_start() {
  local daemon=$1
  work=$(mktemp -d)
  mkdir "$work/state"
  dbus-daemon --session --nofork --address="unix:path=$work/bus" >/dev/null 2>&1 &
  bus=$!
  trap 'kill "$bus" ${daemon_pid:-} 2>/dev/null || true; rm -rf "$work"' EXIT
  export DBUS_SESSION_BUS_ADDRESS="unix:path=$work/bus"
  local waited=0
  until [ -S "$work/bus" ]; do
    sleep 0.05
    waited=$((waited + 1))
    [ "$waited" -lt 200 ] || { echo "start-order.sh: the private bus did not start" >&2; exit 1; }
  done
  valgrind --tool=callgrind --demangle=no --compress-strings=no --callgrind-out-file="$work/calls" \
    "$daemon" --state-dir "$work/state" >"$work/log" 2>&1 &
  daemon_pid=$!
  # The name, awaited with a deadline: the daemon runs about fifty times slower under callgrind.
  waited=0
  until dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
          org.freedesktop.DBus.NameHasOwner string:org.example.NetworkActivity 2>/dev/null | grep -q true; do
    sleep 0.1
    waited=$((waited + 1))
    [ "$waited" -lt 600 ] || { echo "start-order.sh: the daemon did not own its name" >&2; cat "$work/log" >&2; exit 1; }
  done
  dbus-send --session --print-reply --dest=org.example.NetworkActivity /org/example/NetworkActivity \
    org.example.NetworkActivity.Begin string:start-order >/dev/null
  kill -TERM "$daemon_pid"
  wait "$daemon_pid" || true
  daemon_pid=
  kill "$bus" 2>/dev/null || true
  wait "$bus" 2>/dev/null || true
  # Callgrind names each object (ob=) before its functions (fn=); code without a symbol is named by its address.
  awk -v program="$daemon" '
    /^ob=/ { ours = (substr($0, 4) == program) }
    /^fn=/ && ours { name = substr($0, 4); if (name !~ /^0x[0-9a-f]+$/) print name }
  ' "$work/calls" | LC_ALL=C sort -u
  rm -rf "$work"
}

[ $# -eq 1 ] || { echo "usage: bash packaging/start-order.sh DAEMON" >&2; exit 2; }
functions_run_at_start "$(realpath "$1")"
