#!/usr/bin/env bash
# The README's test command: installs what the tests need (Tests/install-tools.sh), then runs the whole suite with
# Swift Testing. Arguments go to `swift test`, e.g. `bash Tests/run.sh --filter PanelConfigTests`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash Tests/install-tools.sh
exec swift test --disable-xctest "$@"
