#!/usr/bin/env bash
# The release build of netactivity's programs, as the Debian package, `dbus/run.sh` and the benchmark use them, into
# the usual release folder (`swift build -c release --show-bin-path`), whose path it prints. Arguments go to
# every `swift build` (e.g. `--scratch-path .build-deb` for a build folder of its own).
#
# The Swift runtime is linked in (`--static-swift-stdlib`): the programs then run where no Swift toolchain is, and a
# process reads only the parts of the runtime it uses, which halves the daemon's idle memory (docs/performance.md).
# Nothing else is tuned: docs/performance.md has the figures that say it is not worth its weight.
set -euo pipefail
cd "$(dirname "$0")/.."
build=(swift build -c release --static-swift-stdlib --disable-local-rpath)
for product in netactivityd netactivity netactivity-tray netactivity-bench; do
  "${build[@]}" --product "$product" "$@" >&2
done
"${build[@]}" "$@" --show-bin-path
