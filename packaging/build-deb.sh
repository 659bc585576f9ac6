#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds netactivity_VERSION_ARCH.deb: the release build of netactivityd, netactivity and netactivity-tray
# (packaging/build-release.sh, with the Swift runtime linked in, so that they run where no Swift toolchain is), staged
# by packaging/install.sh under /usr, with the copyright file and changelog Debian asks for, Depends read from the
# programs' shared libraries by dpkg-shlibdeps, and packed by dpkg-deb. Arguments go to `swift build`.
#   OUTPUT    the folder to write the package to (default: .build/packages, which git ignores)
#   PRODUCTS  a release build's folder to package instead of building one (Tests/run.sh's, so that the release
#             is built once)
# Prints the package's path. Install it with: sudo apt install ./.build/packages/netactivity_*.deb
set -euo pipefail
cd "$(dirname "$0")/.."
output=$(mkdir -p "${OUTPUT:-.build/packages}" && cd "${OUTPUT:-.build/packages}" && pwd)

products=${PRODUCTS:-$(bash packaging/build-release.sh "$@")}

version=$("$products/netactivityd" --version)
architecture=$(dpkg --print-architecture)
changelog_version=$(sed -n '1s/^netactivity (\([^)]*\)).*/\1/p' packaging/debian/changelog)
if [ "$changelog_version" != "$version" ]; then
  echo "packaging/debian/changelog's newest entry is $changelog_version, but the programs are $version" >&2
  exit 1
fi

work=$(mktemp -d /tmp/netactivity-deb.XXXXXX)
trap 'rm -rf "$work"' EXIT
# dpkg-shlibdeps expects a package's files in debian/PACKAGE (with its DEBIAN folder), beside the debian/control
# it reads the package's name from.
stage=$work/debian/netactivity
mkdir -p "$stage/DEBIAN"
DESTDIR=$stage PREFIX=/usr PRODUCTS=$products bash packaging/install.sh >&2
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$stage"/usr/bin/*
gzip -9n "$stage"/usr/share/man/man*/*
doc=$stage/usr/share/doc/netactivity
install -Dm644 packaging/debian/copyright -t "$doc"
gzip -9nc packaging/debian/changelog >"$doc/changelog.gz"

printf 'Source: netactivity\n\nPackage: netactivity\nArchitecture: any\n' >"$work/debian/control"
depends=$(cd "$work" && dpkg-shlibdeps -O debian/netactivity/usr/bin/* | sed -n 's/^shlibs:Depends=//p')

# The extension's build is chosen on the machine, when the package is configured and when gnome-shell changes.
install -m755 packaging/debian/postinst packaging/debian/postrm -t "$stage/DEBIAN"
install -m644 packaging/debian/triggers -t "$stage/DEBIAN"
(cd "$stage" && find usr -type f -print0 | sort -z | xargs -0 md5sum >DEBIAN/md5sums)
sed -e "s|@version@|$version|" -e "s|@architecture@|$architecture|" -e "s|@depends@|$depends|" \
    -e "s|@installed_size@|$(du -sk --exclude=DEBIAN "$stage" | cut -f1)|" packaging/debian/control >"$stage/DEBIAN/control"
package=$output/netactivity_${version}_${architecture}.deb
dpkg-deb --root-owner-group -Zxz --build "$stage" "$package" >&2
echo "$package"
