#!/usr/bin/env bash
# The README's test command: installs what the tests need (Tests/install-tools.sh), builds the benchmark and, for a
# whole run, the release (packaging/build-release.sh, which the package's test packages), then runs the suite with
# Swift Testing. Arguments go to `swift test`, e.g. `bash Tests/run.sh --filter PanelConfigTests`; the package's
# test, run that way, makes a release build of its own.
#
# A whole run runs the suite in four processes at once (Tests/run-parts.sh: the integration suites are serialized
# within a process, and each test sees only what it starts), then the desktops on screen (HostRenderingTests, and
# DebianDesktopTests from Debian's roots, which are made meanwhile the first time) alone: GNOME's AppIndicator extension, starting while the other tests load both cores, was seen to drop an item
# whose properties it had not yet read (twice in ten runs; never with the machine to itself).
#
# .ci/run, which has done these steps already, says so: NETACTIVITY_TOOLS_INSTALLED=1 skips the installer, and
# NETACTIVITY_RELEASE (the release build's folder) the release build.
set -euo pipefail
cd "$(dirname "$0")/.."
[ "${NETACTIVITY_TOOLS_INSTALLED:-}" = 1 ] || bash Tests/install-tools.sh
# The benchmark is a package of its own; the integration tests run its stress, memory and fuzz tools.
swift build --package-path Benchmarks
if [ $# -gt 0 ]; then
  exec swift test --disable-xctest "$@"
fi
if [ -z "${NETACTIVITY_RELEASE:-}" ]; then
  NETACTIVITY_RELEASE=$(bash packaging/build-release.sh)
  export NETACTIVITY_RELEASE
fi
swift build --build-tests
# Debian's newer desktops run from roots made once and kept outside the checkout (DebianDesktopTests): on a fresh
# machine they are made meanwhile, while the other suites run.
if [ "$(id -u)" = 0 ]; then
  for root in trixie-gnome trixie-plasma forky-gnome; do
    bash Tests/Rendering/debian-root.sh make "$root" >/dev/null &
  done
fi
bash Tests/run-parts.sh "$(swift build --show-bin-path)/netactivityPackageTests.xctest" \
  --skip HostRenderingTests --skip DebianDesktopTests
wait
exec swift test --disable-xctest --skip-build --filter "HostRenderingTests|DebianDesktopTests"
