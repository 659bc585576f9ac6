#!/usr/bin/env bash
# Builds netactivity_VERSION_ARCH.deb: the release build of netactivityd, netactivity and netactivity-tray
# (dbus/build-release.sh, with the Swift runtime linked in, so that they run where no Swift toolchain is), staged
# by dbus/install.sh under /usr, with the copyright file and changelog Debian asks for, Depends read from the
# programs' shared libraries by dpkg-shlibdeps, and packed by dpkg-deb. Arguments go to `swift build`.
#   OUTPUT  the folder to write the package to (default: the repository's top folder)
# Prints the package's path. Install it with: sudo apt install ./netactivity_*.deb
set -euo pipefail
cd "$(dirname "$0")/.."
output=$(mkdir -p "${OUTPUT:-.}" && cd "${OUTPUT:-.}" && pwd)

products=$(bash dbus/build-release.sh "$@")

version=$("$products/netactivityd" --version)
architecture=$(dpkg --print-architecture)
changelog_version=$(sed -n '1s/^netactivity (\([^)]*\)).*/\1/p' dbus/debian/changelog)
if [ "$changelog_version" != "$version" ]; then
  echo "dbus/debian/changelog's newest entry is $changelog_version, but the programs are $version" >&2
  exit 1
fi

work=$(mktemp -d /tmp/netactivity-deb.XXXXXX)
trap 'rm -rf "$work"' EXIT
# dpkg-shlibdeps expects a package's files in debian/PACKAGE (with its DEBIAN folder), beside the debian/control
# it reads the package's name from.
stage=$work/debian/netactivity
mkdir -p "$stage/DEBIAN"
DESTDIR=$stage PREFIX=/usr PRODUCTS=$products bash dbus/install.sh >&2
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$stage"/usr/bin/*
gzip -9n "$stage"/usr/share/man/man*/*
doc=$stage/usr/share/doc/netactivity
install -Dm644 dbus/debian/copyright -t "$doc"
gzip -9nc dbus/debian/changelog >"$doc/changelog.gz"

printf 'Source: netactivity\n\nPackage: netactivity\nArchitecture: any\n' >"$work/debian/control"
depends=$(cd "$work" && dpkg-shlibdeps -O debian/netactivity/usr/bin/* | sed -n 's/^shlibs:Depends=//p')

(cd "$stage" && find usr -type f -print0 | sort -z | xargs -0 md5sum >DEBIAN/md5sums)
sed -e "s|@version@|$version|" -e "s|@architecture@|$architecture|" -e "s|@depends@|$depends|" \
    -e "s|@installed_size@|$(du -sk --exclude=DEBIAN "$stage" | cut -f1)|" dbus/debian/control >"$stage/DEBIAN/control"
package=$output/netactivity_${version}_${architecture}.deb
dpkg-deb --root-owner-group -Zxz --build "$stage" "$package" >&2
echo "$package"
