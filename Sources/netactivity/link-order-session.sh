# Sourced by the update-link-order.sh of netactivity and of netactivity-tray: builds the release products, starts a
# private session bus and netactivityd (delays 0) on it in a scratch folder that an EXIT trap removes with them,
# and writes a program's link-order.txt from the callgrind files its script left in that folder.
# The caller has cd'd to the package and set `programs` to the products it needs besides netactivityd.
for product in "${programs[@]}" netactivityd; do swift build -c release --product "$product" >&2; done
products=.build/release
work=$(mktemp -d)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true; rm -rf "$work"' EXIT

# Waits up to 60 s (programs run slowly under callgrind) until "$@" succeeds.
within_a_minute() {
  for _ in $(seq 600); do "$@" >/dev/null 2>&1 && return 0; sleep 0.1; done
  echo "timed out: $*" >&2
  return 1
}
name_has_owner() {
  [ "$(gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
        --method org.freedesktop.DBus.NameHasOwner "$1")" = "(true,)" ]
}

# Every function of PROGRAM that ran in the callgrind files of $work, once each, into FILE. With RUN, the name of
# one callgrind file (callgrind.out.RUN) whose run lasts all day, the functions only that run used come first, then
# those it shares with the others, then the others' own: the all-day run's code fills the fewest pages, and the
# short runs' own code none of them.
write_link_order() {
  local program=$1 file=$2 run=${3:-}
  if [ -z "$run" ]; then
    functions_of "$program" "$work"/callgrind.out* | sort -u >"$file"
  else
    local others=("$work"/callgrind.out*)
    others=("${others[@]/"$work/callgrind.out.$run"}")
    functions_of "$program" "$work/callgrind.out.$run" | sort -u >"$work/all-day"
    functions_of "$program" "${others[@]}" | sort -u >"$work/others"
    { comm -23 "$work/all-day" "$work/others"; comm -12 "$work/all-day" "$work/others"
      comm -13 "$work/all-day" "$work/others"; } >"$file"
  fi
  wc -l "$file" >&2
}

# The functions of PROGRAM that ran in the callgrind files given, by their mangled names, unsorted (those without a
# name, which callgrind shows by address, left out).
functions_of() {
  local program=$1 out
  for out in "${@:2}"; do
    [ -n "$out" ] || continue
    callgrind_annotate --inclusive=no --threshold=100 "$out" 2>/dev/null
  done | sed -nE "s/^ *[0-9,]+ \([^)]*\)  [^ ]*:([^ ]+) \[.*$program\]\$/\1/p" | grep -v -e "'" -e "^0x"
}

dbus-daemon --session --address="unix:path=$work/bus" --nofork --print-address=3 3>"$work/address" 2>/dev/null &
pids+=($!)
within_a_minute test -s "$work/address"
export DBUS_SESSION_BUS_ADDRESS
DBUS_SESSION_BUS_ADDRESS=$(head -1 "$work/address")
"$products/netactivityd" --show-delay 0 --hide-delay 0 --min-visible 0 2>/dev/null &
pids+=($!)
within_a_minute name_has_owner org.example.NetworkActivity
