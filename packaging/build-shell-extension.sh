#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds the GNOME Shell extension (Sources/gnome-shell-extension) for both of the Shell's extension systems, from
# one source tree: GNOME 43 and 44 (`imports` modules) and GNOME 45 and later (ES modules). Each build is a folder
# to install as /usr/share/gnome-shell/extensions/netactivity@example.org (packaging/install.sh takes the 43-44 one,
# Debian 12's) and a zip that `gnome-extensions install` takes on any distribution.
#   OUTPUT  where to write (default .build/shell-extension): gnome-43/ and gnome-45/, each with the folder
#           netactivity@example.org and the zip netactivity@example.org.shell-extension.zip
# Prints OUTPUT.
set -euo pipefail
cd "$(dirname "$0")/.."
output=$(mkdir -p "${OUTPUT:-.build/shell-extension}" && cd "${OUTPUT:-.build/shell-extension}" && pwd)
uuid=netactivity@example.org
source=Sources/gnome-shell-extension
version=$(sed -n 's/.*current = "\(.*\)".*/\1/p' Sources/ProgramSupport/PackageVersion.swift)

# Every file of a build, as the zip carries them, and the translations in locale/LANG/LC_MESSAGES/netactivity.mo,
# where the Shell looks for the metadata's gettext-domain.
files=(metadata.json extension.js indicator.js stylesheet.css stylesheet-light.css LICENSE locale)

build() { # NAME SHELL_VERSIONS ENTRY_POINT MODULE_EXPORT
  local folder=$output/$1/$uuid
  rm -rf "$output/$1"
  mkdir -p "$folder"
  sed -e "s/SHELL_VERSIONS/$2/" -e "s/\"VERSION\"/\"$version\"/" "$source/metadata.json" >"$folder/metadata.json"
  cp "$source/$3" "$folder/extension.js"
  # The logic's five parts joined into one module, and the interfaces, from the XML the service embeds, as strings
  # in the code by name: the extension reads no file for them.
  python3 -c 'import json, re, sys
xml = {re.search(r"<interface name=\"(org\.example\.[^\"]*)\"", open(f).read()).group(1): open(f).read()
       for f in sys.argv[2:]}
parts = "\n".join(open(part).read() for part in sys.argv[1].split())
sys.stdout.write(parts.replace("= INTERFACE_XML_FROM_THE_BUILD;", "= " + json.dumps(xml) + ";"))' \
    "$source/rules.js $source/service.js $source/menu.js $source/notices.js $source/indicator.js" \
    dbus/org.example.NetworkActivity.xml dbus/org.example.NetworkActivity.Usage.xml \
    dbus/org.example.NetworkActivity.Pause.xml dbus/org.example.NetworkActivity.Plans.xml \
    dbus/org.example.NetworkActivity.Limits.xml >"$folder/indicator.js"
  printf '%s' "$4" >>"$folder/indicator.js"
  cp "$source/stylesheet.css" "$source/LICENSE" "$folder/"
  # GNOME 47 and later load stylesheet-light.css instead in their light style: the same, in the destructive
  # colours of the Shell's light style.
  sed -e 's/#c01c28/#e01b24/' -e 's/#d02030/#e8313a/' -e 's/#a51d2d/#c01c28/' "$source/stylesheet.css" \
    >"$folder/stylesheet-light.css"
  bash packaging/build-catalogs.sh "$folder/locale" >/dev/null
  if command -v gnome-extensions >/dev/null; then
    gnome-extensions pack "$folder" --extra-source=indicator.js --extra-source=stylesheet-light.css \
      --extra-source=LICENSE --extra-source=locale --out-dir="$output/$1" --force
  else
    (cd "$folder" && python3 -m zipfile -c "$output/$1/$uuid.shell-extension.zip" "${files[@]}")
  fi
}

# The versions each build was tested on (docs/testing.md, "Today's desktops").
build gnome-43 '["43", "44"]' extension-43.js ''
build gnome-45 '["45", "46", "47", "48", "49", "50", "51"]' extension-45.js $'\nexport {start, INTERFACE_XML};\n'
echo "$output"
