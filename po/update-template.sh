#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Makes po/netactivity.pot, the template of every text a person reads, from the sources, and brings each language's
# catalog (po/LANG.po, listed in po/LINGUAS) up to date with it (msgmerge): the one command a translator or a
# developer who changed a text runs (docs/translating.md). With an argument, writes the template there instead and
# touches no catalog: the test that no text is missing from po/netactivity.pot compares such a template with it.
#
# Texts are found where they are marked: `localized("…")` and `localizedPlural("…", "…", count: …)` in Swift, `_('…')`
# and `ngettext('…', '…', n)` in the GNOME Shell extension. xgettext reads the extension as JavaScript, and the
# Swift as C, which it is close to where a text is marked; Swift's multi-line and raw strings, which C has not,
# are blanked first (no text for people is written in them), keeping every line where it was.
set -euo pipefail
cd "$(dirname "$0")/.."
template=${1:-po/netactivity.pot}
version=$(sed -n 's/.*current = "\(.*\)".*/\1/p' Sources/ProgramSupport/PackageVersion.swift)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

mapfile -t swift < <(grep -rlE --include='*.swift' '\blocalized(Plural)?\("' Sources | sort)
for file in "${swift[@]}"; do
  mkdir -p "$work/$(dirname "$file")"
  python3 -c '
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
blank = lambda match: "\n" * match.group(0).count("\n")
text = re.sub(r"\"\"\".*?\"\"\"", blank, text, flags=re.S)
text = re.sub(r"#\".*?\"#", "\"\"", text)
sys.stdout.write(text)' "$file" >"$work/$file"
done
common=(--from-code=UTF-8 --add-comments=TRANSLATORS: --sort-by-file --package-name=netactivity
        "--package-version=$version" --msgid-bugs-address=https://example.org/netactivity/issues)
xgettext "${common[@]}" --directory="$work" --language=C --keyword= --keyword=localized:1 \
  --keyword=localizedPlural:1,2 --output="$work/netactivity.pot" "${swift[@]}"
xgettext "${common[@]}" --join-existing --language=JavaScript --keyword= --keyword=_ --keyword=ngettext:1,2 \
  --output="$work/netactivity.pot" Sources/gnome-shell-extension/{rules,service,menu,indicator}.js
sed -i 's/^"Content-Type: text\/plain; charset=CHARSET\\n"$/"Content-Type: text\/plain; charset=UTF-8\\n"/' \
  "$work/netactivity.pot"
cp "$work/netactivity.pot" "$template"
[ $# -eq 0 ] || exit 0
for language in $(grep -v '^#' po/LINGUAS); do
  msgmerge --quiet --update --backup=none --no-fuzzy-matching "po/$language.po" "$template"
done
