#!/usr/bin/env bash
# What `netactivity shell-init` costs an interactive shell (docs/performance.md), not a test: each shell, on a
# terminal of its own (script), runs LINES command lines typed one after the other, with and without the hook,
# on a private bus with the daemon running. Prints the time per line, best of 3, and the difference the hook makes:
#   a command that is not on the list (/bin/true);
#   a command that is (a `curl` that does nothing), which begins an activity first and ends it in the background.
# Usage: bash Tests/Shell/hook-cost.sh [PRODUCTS] [LINES]   (PRODUCTS: .build/release by default)
set -euo pipefail
cd "$(dirname "$0")/../.."
products=$(realpath "${1:-.build/release}")
lines=${2:-500}
work=$(mktemp -d)
trap 'kill $(cat "$work"/*.pid 2>/dev/null) 2>/dev/null || true; rm -rf "$work"' EXIT

dbus-daemon --session --address="unix:path=$work/bus" --nofork --print-pid=1 >"$work/bus.pid" 2>/dev/null &
for _ in $(seq 100); do [ -S "$work/bus" ] && break; sleep 0.05; done
export DBUS_SESSION_BUS_ADDRESS="unix:path=$work/bus"
"$products/netactivityd" >/dev/null 2>&1 &
echo $! >"$work/daemon.pid"
for _ in $(seq 100); do "$products/netactivity" status >/dev/null 2>&1 && break; sleep 0.05; done
"$products/netactivity" status >/dev/null
mkdir -p "$work/bin"
printf '#!/bin/sh\nexit 0\n' >"$work/bin/curl"
chmod +x "$work/bin/curl"
export PATH="$work/bin:$products:$PATH" TERM=dumb HOME="$work"

per_line() {  # SHELL_COMMAND SETUP LINE: the best of 3 runs, in microseconds per line
  local best=0
  for _ in 1 2 3; do
    { [ -n "$2" ] && echo "$2"; for _ in $(seq "$lines"); do echo "$3"; done; echo exit; } >"$work/input"
    local start end
    start=$(date +%s%N)
    script -qfec "$1" /dev/null <"$work/input" >/dev/null
    end=$(date +%s%N)
    local micros=$(((end - start) / lines / 1000))
    if [ "$best" = 0 ] || [ "$micros" -lt "$best" ]; then best=$micros; fi
  done
  echo "$best"
}

printf '%-5s %-28s %10s %10s %10s\n' shell command without with "hook's cost"
for shell in bash zsh fish; do
  case $shell in
    bash) command="bash --norc --noprofile -i" setup='eval "$(netactivity shell-init bash)"' ;;
    zsh) command="zsh -f -i" setup='eval "$(netactivity shell-init zsh)"' ;;
    fish) command="fish --no-config -i" setup='netactivity shell-init fish | source' ;;
  esac
  for line in "/bin/true not-on-the-list" "curl https://example.invalid/"; do
    without=$(per_line "$command" "" "$line")
    with=$(per_line "$command" "$setup" "$line")
    printf '%-5s %-28s %8s µs %8s µs %8s µs\n' "$shell" "${line%% *}" "$without" "$with" "$((with - without))"
  done
done
