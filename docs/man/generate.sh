#!/usr/bin/env bash
# Writes docs/man/netactivity.1: swift-argument-parser's generate-manual tool writes its NAME, SYNOPSIS and
# DESCRIPTION (every flag and subcommand, from the same declarations that --help prints), and
# docs/man/netactivity.tail.mdoc adds what no declaration holds: ENVIRONMENT, FILES, EXIT STATUS, EXAMPLES and SEE
# ALSO. Run it after changing a flag or a subcommand; ManualPageTests fails until then. netactivityd and
# netactivity-tray parse their options themselves (CommandLineOptions), so their pages, docs/man/netactivityd.8 and
# docs/man/netactivity-tray.1, are written by hand.
#
# The tool is run on netactivity alone, not through the package's plugin: the plugin asks every executable of the
# package that links ArgumentParser for its help, the fuzz targets too, which have none to give.
set -euo pipefail
cd "$(dirname "$0")/../.."

date=$(git log -1 --format=%cs 2>/dev/null || date +%F)
swift build --product netactivity >/dev/null
swift build --product generate-manual >/dev/null
generated=$(mktemp -d)
trap 'rm -rf "$generated"' EXIT
"$(swift build --show-bin-path)/generate-manual" "$(swift build --show-bin-path)/netactivity" --date "$date" \
  --output-directory "$generated" >/dev/null

# The generator ends with a generic EXIT STATUS ("0 on success") and an AUTHORS line; ours replace them. An empty
# line is a paragraph break in help text but a warning in mdoc, so it becomes .Pp. An empty .Os prints "BSD".
sed -e '/^\.Sh "EXIT STATUS"/,$d' -e 's/^$/.Pp/' -e 's/^\.Os$/.Os netactivity/' \
  "$generated/netactivity.1" >docs/man/netactivity.1
cat docs/man/netactivity.tail.mdoc >>docs/man/netactivity.1
echo "wrote docs/man/netactivity.1"
