#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The release build of netactivity's programs, as the Debian package, `packaging/run.sh` and the benchmark use them, into
# the usual release folder (`swift build -c release --show-bin-path`), whose path it prints. Arguments go to
# every `swift build` (e.g. `--scratch-path .build-deb` for a build folder of its own).
#
# What is passed beyond `-c release`, each measured with `netactivity-bench` and the minimal C service
# (docs/performance.md has the figures), and nothing else:
# - the Swift runtime linked in (`--static-swift-stdlib`): the programs run where no Swift toolchain is, and a
#   process reads only the parts of the runtime it uses;
# - the C++ runtime the Swift runtime needs, and libgcc's unwinder, from their static archives: loading the shared
#   ones costs every start 1.5 million instructions of symbol lookups and the daemon 0.9 MB;
# - lld with packed relocations (`DT_RELR`) and no exported symbols: fewer pages written at load, 0.55 MB less.
# - no run-time exclusivity checks (`-enforce-exclusivity=unchecked`, as the Swift standard library itself is
#   built): 2.7 % of the daemon's instructions per Begin+End pair, about 45 checks of its class properties a pair.
#   The compiler still checks exclusivity statically; the debug build, the sanitizer runs and the fuzz targets,
#   which run the whole suite and the fuzzers, keep the run-time checks and would trap on a violation;
# - the functions that the daemon's start runs laid out together, each function in a section of its own as the
#   standard library's already are, so that the linker can place it: 1.6 MB less of the daemon resident, idle.
#   Measured at every build: packaging/start-order.sh names what a start of the daemon just linked runs, and the
#   programs are linked again in that order when it changed (names the command and the tray lack are passed by).
#   Without valgrind or dbus-daemon, which measure it, the programs keep the linker's own order, and say so.
set -euo pipefail
cd "$(dirname "$0")/.."

# The linker searches this folder first for -lstdc++, and finds the compiler's static archive. Made here, for the
# compiler that is installed; without a static archive the programs take the shared library.
static=.build-link
mkdir -p "$static"
archive=$(${CXX:-g++} -print-file-name=libstdc++.a 2>/dev/null || true)
if [ -f "$archive" ]; then ln -sfn "$archive" "$static/libstdc++.a"; else rm -f "$static/libstdc++.a"; fi

build=(swift build -c release --static-swift-stdlib --disable-local-rpath
       -Xlinker "-L$PWD/$static" -Xswiftc -Xclang-linker -Xswiftc -static-libgcc
       -Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs -Xlinker --no-export-dynamic
       -Xswiftc -enforce-exclusivity=unchecked -Xswiftc -Xfrontend -Xswiftc -function-sections)
bin=$("${build[@]}" "$@" --show-bin-path | tail -n 1)
# The order of the last build, in its own folder (empty the first time): the linker needs a file to read.
order="$bin/netactivityd.start-order"
mkdir -p "$bin"
[ -f "$order" ] || : >"$order"
build+=(-Xlinker "--symbol-ordering-file=$order" -Xlinker --no-warn-symbol-ordering)

link_programs() {
  for product in netactivityd netactivity netactivity-tray; do
    "${build[@]}" --product "$product" "$@" >&2
  done
}
link_programs "$@"
if command -v valgrind >/dev/null && command -v dbus-daemon >/dev/null && command -v dbus-send >/dev/null; then
  bash packaging/start-order.sh "$bin/netactivityd" >"$order.new"
  if cmp -s "$order.new" "$order"; then
    rm -f "$order.new"
  else
    mv "$order.new" "$order"
    # Linked again, the objects as they are: the build sees no change in its own inputs.
    rm -f "$bin/netactivityd" "$bin/netactivity" "$bin/netactivity-tray"
    link_programs "$@"
  fi
else
  echo "build-release.sh: no valgrind or dbus-daemon to measure the daemon's start: its code stays in the" \
       "linker's order (docs/performance.md, \"The code a start runs, together\")" >&2
fi
echo "$bin"
