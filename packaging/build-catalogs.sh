#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Compiles every language's catalog (po/LANG.po, listed in po/LINGUAS) into OUTPUT/LANG/LC_MESSAGES/netactivity.mo,
# the layout of /usr/share/locale and of a GNOME Shell extension's locale/ folder, checking each with
# `msgfmt --check` (placeholders, plural forms, the header) so that a broken translation fails the build instead
# of showing a person a broken text. Prints OUTPUT.
#   OUTPUT  default .build/locale; tests point TEXTDOMAINDIR at it to run programs that are not installed
set -euo pipefail
cd "$(dirname "$0")/.."
output=${1:-.build/locale}
command -v msgfmt >/dev/null || {
  echo "msgfmt is missing: apt-get install gettext" >&2
  exit 1
}
for language in $(grep -v '^#' po/LINGUAS); do
  mkdir -p "$output/$language/LC_MESSAGES"
  msgfmt --check --output-file="$output/$language/LC_MESSAGES/netactivity.mo" "po/$language.po"
done
(cd "$output" && pwd)
