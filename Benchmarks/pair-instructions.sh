#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Instructions per Begin+End pair of a service of org.example.NetworkActivity, counted by callgrind: the figure the
# CPU guards trust (docs/performance.md), since it repeats to the instruction where CPU time moves by 10-20 %.
#
#   bash Benchmarks/pair-instructions.sh [--state] SERVICE [ARGUMENTS...]
#
# On a private bus of its own, the service runs under `valgrind --tool=callgrind`; a client of Debian's
# python3-dbus holds one activity on one connection and makes N Begin+End pairs one after the other on another.
# The count of a run of 200 pairs is subtracted from that of a run of 1,200 (2,200 with --state, so that the
# journal's rewrites are counted), and the rest divided by the pairs between them, so that start-up and exit
# cancel out. With --state, the service is given a fresh --state-dir on /dev/shm each run.
set -euo pipefail
state=false
if [ "${1:-}" = --state ]; then state=true; shift; fi
[ $# -ge 1 ] || { echo "usage: $0 [--state] SERVICE [ARGUMENTS...]" >&2; exit 64; }
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$work"' EXIT
cat > "$work/bus.conf" <<CONF
<busconfig>
  <type>session</type>
  <listen>unix:path=$work/socket</listen>
  <policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy>
</busconfig>
CONF
dbus-daemon --config-file="$work/bus.conf" --nofork --nopidfile 2>/dev/null &
for _ in $(seq 100); do [ -S "$work/socket" ] && break; sleep 0.05; done
export DBUS_SESSION_BUS_ADDRESS="unix:path=$work/socket"

count() {
  local pairs=$1 arguments=("${@:2}")
  if $state; then
    local folder; folder=$(mktemp -d /dev/shm/pair-instructions.XXXXXX)
    arguments+=(--state-dir "$folder/state")
  fi
  valgrind --tool=callgrind --callgrind-out-file="$work/out.$pairs" "${arguments[@]}" 2>/dev/null &
  local service=$!
  /usr/bin/python3 - "$pairs" <<'PY'
import sys, time, dbus
name, path, interface = "org.example.NetworkActivity", "/org/example/NetworkActivity", "org.example.NetworkActivity"
deadline = time.monotonic() + 60
while True:
    try:
        holder = dbus.SessionBus(private=True)
        service = dbus.Interface(holder.get_object(name, path), interface)
        held = service.Begin("held")
        break
    except dbus.DBusException:
        if time.monotonic() > deadline: raise
        time.sleep(0.1)
caller = dbus.Interface(dbus.SessionBus(private=True).get_object(name, path), interface)
for _ in range(int(sys.argv[1])):
    caller.End(caller.Begin("pair"))
service.End(held)
PY
  kill -TERM "$service"; wait "$service" || true
  if $state; then rm -rf "$folder"; fi
  awk '/^(summary|totals):/ { print $2; exit }' "$work/out.$pairs"
}

short=200; long=$($state && echo 2200 || echo 1200)
a=$(count $short "$@"); b=$(count $long "$@")
echo "$(( (b - a) / (long - short) )) instructions per Begin+End pair ($long - $short pairs: $b - $a)"
