#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Points GNOME Shell's extension folder at the build of the extension that the installed GNOME Shell loads: the
# `imports` build for GNOME 43-44, the ES-module build for 45 and later (and where no GNOME Shell is installed yet).
# Installed beside the two builds, as $PREFIX/share/netactivity/gnome-shell/select-build; packaging/install.sh runs
# it, and so does the Debian package's postinst, when it is configured and whenever gnome-shell is installed or
# upgraded (its trigger), so that an upgrade from Debian 12 to 13 takes the other build.
set -e
here=$(cd "$(dirname "$0")" && pwd)
extensions=$(cd "$here/../.." && pwd)/gnome-shell/extensions
uuid=netactivity@example.org
version=$(dpkg-query -W -f='${Version}' gnome-shell 2>/dev/null || true)
[ -n "$version" ] || version=$(gnome-shell --version 2>/dev/null | sed 's/^[^0-9]*//' || true)
major=${version#*:}
major=${major%%.*}
build=gnome-45
case "$major" in
  ''|*[!0-9]*) ;;
  *) [ "$major" -ge 45 ] || build=gnome-43 ;;
esac
mkdir -p "$extensions"
# A folder left by a version of the package that installed the extension itself.
[ -L "$extensions/$uuid" ] || [ ! -d "$extensions/$uuid" ] || rm -rf "${extensions:?}/$uuid"
ln -sfn "../../netactivity/gnome-shell/$build/$uuid" "$extensions/$uuid"
echo "GNOME Shell ${major:-(none)}: $extensions/$uuid is the $build build"
