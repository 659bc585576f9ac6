#!/usr/bin/env bash
# Writes docs/man/netactivity.1 and docs/man/netactivity-tray.1: swift-argument-parser's generate-manual plugin
# writes each program's NAME, SYNOPSIS and DESCRIPTION (every flag and subcommand, from the same declarations that
# --help prints), and docs/man/PROGRAM.tail.mdoc adds what no declaration holds: ENVIRONMENT, FILES, EXIT STATUS,
# EXAMPLES and SEE ALSO. Run it after changing a flag or a subcommand; ManualPageTests fails until then.
# netactivityd parses its flags itself, so its page, docs/man/netactivityd.8, is written by hand.
set -euo pipefail
cd "$(dirname "$0")/../.."

date=$(git log -1 --format=%cs 2>/dev/null || date +%F)
swift package plugin generate-manual --date "$date" >/dev/null
generated=.build/plugins/GenerateManual/outputs

for program in netactivity netactivity-tray; do
  # The generator ends with a generic EXIT STATUS ("0 on success") and an AUTHORS line; ours replace them. An empty
  # line is a paragraph break in help text but a warning in mdoc, so it becomes .Pp. An empty .Os prints "BSD".
  sed -e '/^\.Sh "EXIT STATUS"/,$d' -e 's/^$/.Pp/' -e 's/^\.Os$/.Os netactivity/' \
    "$generated/$program/$program.1" >"docs/man/$program.1"
  cat "docs/man/$program.tail.mdoc" >>"docs/man/$program.1"
done

# The tray has no subcommands, but the generator gives every root command a synopsis with one and lists
# ArgumentParser's implicit `help`, which only commands with subcommands answer.
sed -i -e '/^\.Ar subcommand$/d' -e '/^\.It Em help$/,/^\.El$/d' docs/man/netactivity-tray.1
echo "wrote docs/man/netactivity.1 and docs/man/netactivity-tray.1"
