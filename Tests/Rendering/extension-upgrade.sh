#!/usr/bin/env bash
# The Debian package gives each GNOME Shell the extension's build it loads, including after an upgrade of GNOME
# Shell from 43 to 48 and back: installed into a throwaway copy of this machine (debian-root.sh overlay host), the
# package's link points at the GNOME 43 build; a gnome-shell package of version 48 installed over it (a stand-in made
# here with dpkg-deb, holding /usr/bin/gnome-shell, the file the package's trigger watches) moves it to the GNOME 45+
# build, and a gnome-shell of version 43 back; removing the package removes the link.
#
# Usage: extension-upgrade.sh PACKAGE
# Prints "PASS extension upgrade" and exits 0, or exits 1 saying what was not so.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
link=/usr/share/gnome-shell/extensions/netactivity@example.org

if [ "${1:-}" = --inside ]; then
  package=$2 stage=$3
  fail() { echo "FAIL (extension upgrade): $*" >&2; exit 1; }
  build_in_use() { readlink "$link" | sed -n 's|.*/\(gnome-4[35]\)/netactivity@example.org$|\1|p'; }
  stand_in() { # VERSION: a gnome-shell package of that version, with its /usr/bin/gnome-shell
    local root=$stage/gnome-shell-$1
    mkdir -p "$root/DEBIAN" "$root/usr/bin"
    printf 'Package: gnome-shell\nVersion: %s\nArchitecture: all\nMaintainer: tests <tests@example.org>\nDescription: a stand-in\n' \
      "$1" >"$root/DEBIAN/control"
    printf '#!/bin/sh\necho "GNOME Shell %s"\n' "${1%%-*}" >"$root/usr/bin/gnome-shell"
    chmod 755 "$root/usr/bin/gnome-shell"
    dpkg-deb --root-owner-group --build "$root" "$root.deb" >/dev/null
    echo "$root.deb"
  }
  # The machine's own GNOME Shell first, then the stand-ins.
  shell=$(dpkg-query -W -f='${Version}' gnome-shell)
  case "$shell" in 4[34].*) expected=gnome-43 ;; *) expected=gnome-45 ;; esac
  dpkg -i "$package" >"$stage/dpkg.log" 2>&1 || fail "dpkg did not install the package: $(tail -5 "$stage/dpkg.log")"
  [ -L "$link" ] || fail "no link at $link"
  [ "$(build_in_use)" = "$expected" ] || fail "GNOME Shell $shell has the $(build_in_use) build, not $expected"
  [ -f "$link/metadata.json" ] || fail "the link leads nowhere"
  echo "GNOME Shell $shell: the $expected build"
  for version in 48.7-0+deb13u1 43.9-0+deb12u2 50.5-1; do
    dpkg -i --force-depends --force-breaks --force-conflicts "$(stand_in "$version")" >>"$stage/dpkg.log" 2>&1 ||
      fail "the stand-in gnome-shell $version did not install: $(tail -5 "$stage/dpkg.log")"
    case "$version" in 43.*) expected=gnome-43 ;; *) expected=gnome-45 ;; esac
    [ "$(build_in_use)" = "$expected" ] || fail "after gnome-shell $version, the $(build_in_use) build, not $expected"
    echo "upgraded to GNOME Shell $version: the $expected build"
  done
  dpkg -r netactivity >>"$stage/dpkg.log" 2>&1 || fail "dpkg did not remove the package"
  [ ! -e "$link" ] && [ ! -L "$link" ] || fail "the link stayed after the package was removed"
  echo "removed: no link"
  echo "PASS extension upgrade"
  exit 0
fi

package=$1
stage=$(mktemp -d /tmp/netactivity-upgrade.XXXXXX)
trap 'rm -rf "$stage"' EXIT
chmod 755 "$stage"
cp "$0" "$package" "$stage/"
bash "$here/debian-root.sh" overlay host "$stage/$(basename "$0")" --inside "$stage/$(basename "$package")" "$stage"
