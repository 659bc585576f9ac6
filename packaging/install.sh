#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs netactivityd, the netactivity command, the netactivity-tray icon, their D-Bus and systemd files, GNOME
# Shell's extension, their manual pages and netactivity's shell completions. packaging/build-deb.sh stages the Debian package with it.
#   PREFIX    where to install (default /usr/local)
#   DESTDIR   staging root for packaging (default none)
#   PRODUCTS  the build folder to install from (default .build/release, built if the programs are missing)
# Everything goes where freedesktop tools, man and the shells look under $PREFIX: bin/, share/dbus-1/,
# lib/systemd/user/, share/man/, and the bash, zsh and fish completion folders.
set -euo pipefail
cd "$(dirname "$0")/.."
PREFIX=${PREFIX:-/usr/local}
DESTDIR=${DESTDIR:-}
PRODUCTS=${PRODUCTS:-.build/release}
programs=(netactivityd netactivity netactivity-tray)
for program in "${programs[@]}"; do
  [ -x "$PRODUCTS/$program" ] || PRODUCTS=$(bash packaging/build-release.sh)
done
root="$DESTDIR$PREFIX"
fill() { sed "s|@bindir@|$PREFIX/bin|g" "$1"; }
install -Dm755 "${programs[@]/#/$PRODUCTS/}" -t "$root/bin"
install -d "$root/share/dbus-1/services" "$root/share/dbus-1/interfaces" "$root/share/dbus-1/system.d" \
  "$root/share/dbus-1/system-services" "$root/lib/systemd/user" "$root/lib/systemd/system"
fill dbus/org.example.NetworkActivity.service >"$root/share/dbus-1/services/org.example.NetworkActivity.service"
fill dbus/netactivityd.service >"$root/lib/systemd/user/netactivityd.service"
fill dbus/netactivity-tray.service >"$root/lib/systemd/user/netactivity-tray.service"
fill dbus/org.example.NetworkActivity.system-service \
  >"$root/share/dbus-1/system-services/org.example.NetworkActivity.service"
fill dbus/netactivityd-system.service >"$root/lib/systemd/system/netactivityd.service"
install -m644 dbus/org.example.NetworkActivity.xml dbus/org.example.NetworkActivity.Usage.xml \
  dbus/org.example.NetworkActivity.Pause.xml dbus/org.example.NetworkActivity.Limits.xml \
  dbus/org.example.NetworkActivity.Plans.xml "$root/share/dbus-1/interfaces/"
install -m644 dbus/org.example.NetworkActivity.conf "$root/share/dbus-1/system.d/"
install -Dm644 dbus/org.example.NetworkActivity.policy "$root/share/polkit-1/actions/org.example.NetworkActivity.policy"
# The system user the system service runs as (systemd-sysusers makes it; the package's postinst runs it).
install -Dm644 packaging/netactivity.sysusers "$root/lib/sysusers.d/netactivity.conf"

# GNOME Shell's extension: both builds (packaging/build-shell-extension.sh), and share/gnome-shell/extensions pointed
# at the one the installed GNOME Shell loads (select-shell-extension.sh; the Debian package runs it from postinst and
# its trigger instead). `gnome-extensions enable netactivity@example.org` turns it on.
extension_builds=$(mktemp -d)
OUTPUT=$extension_builds bash packaging/build-shell-extension.sh >/dev/null
for build in gnome-43 gnome-45; do
  install -d "$root/share/netactivity/gnome-shell/$build/netactivity@example.org"
  cp -r "$extension_builds/$build"/netactivity@example.org/. \
    "$root/share/netactivity/gnome-shell/$build/netactivity@example.org/"
done
install -m755 packaging/select-shell-extension.sh "$root/share/netactivity/gnome-shell/select-build"
rm -rf "$extension_builds"
[ -n "$DESTDIR" ] || "$root/share/netactivity/gnome-shell/select-build"

# The translations (po/), where gettext looks for the programs' texts: share/locale/LANG/LC_MESSAGES/.
catalogs=$(mktemp -d)
bash packaging/build-catalogs.sh "$catalogs" >/dev/null
install -d "$root/share/locale"
cp -r "$catalogs"/. "$root/share/locale/"
rm -rf "$catalogs"

install -Dm644 docs/man/netactivity.1 docs/man/netactivity-tray.1 -t "$root/share/man/man1"
install -Dm644 docs/man/netactivityd.8 -t "$root/share/man/man8"

# Debian's zsh reads vendor completions from its own folder; elsewhere zsh's site-functions is on the default path.
zsh_folder=$([ "$PREFIX" = /usr ] && echo share/zsh/vendor-completions || echo share/zsh/site-functions)
install -d "$root/share/bash-completion/completions" "$root/$zsh_folder" "$root/share/fish/vendor_completions.d"
# bash-completion sources its files, so the generated script's #! line only misleads.
"$PRODUCTS/netactivity" --generate-completion-script bash | sed '1{/^#!/d}' \
  >"$root/share/bash-completion/completions/netactivity"
"$PRODUCTS/netactivity" --generate-completion-script zsh >"$root/$zsh_folder/_netactivity"
# swift-argument-parser's fish script asks for the cursor's place in the current word with `commandline -tC`, which
# fish before 3.7 (Debian 12 has 3.6) answers with nothing, so `end`'s ids were never asked for; the length of the
# word up to the cursor is the same number in every version.
"$PRODUCTS/netactivity" --generate-completion-script fish |
  sed 's/(__netactivity_tokens -tC)/(string length -- "$(commandline -ct)")/' \
  >"$root/share/fish/vendor_completions.d/netactivity.fish"
echo "installed ${programs[*]} under $root"
