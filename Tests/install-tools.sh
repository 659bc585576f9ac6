#!/usr/bin/env bash
# Installs, from Debian's packages, whatever the test suite needs and this machine lacks; does nothing when all of
# it is there. Tests/run.sh (the README's test command) runs it first, and so does .ci/run.
#   to build: libdbus-1-dev and pkg-config;
#   real D-Bus clients: dbus-daemon, dbus-send, gdbus, busctl, dbus-python; runuser for the two-user checks;
#   the tray on screen: a virtual X screen (Xvfb), screenshots (ImageMagick), the pointer (xdotool) and a real
#   StatusNotifierItem host (gtk-sni-tray);
#   the Debian package: dpkg-shlibdeps, lintian, and man to render the manual pages;
#   the completions: bash-completion's helpers, zsh and fish.
set -euo pipefail

missing=()
pkg-config --exists dbus-1 2>/dev/null || missing+=(libdbus-1-dev pkg-config)
for tool_package in dbus-daemon:dbus-daemon dbus-send:dbus-bin gdbus:libglib2.0-bin busctl:systemd \
                    runuser:util-linux Xvfb:xvfb import:imagemagick xdotool:xdotool \
                    gtk-sni-tray-standalone:haskell-gtk-sni-tray-utils dpkg-shlibdeps:dpkg-dev lintian:lintian \
                    man:man-db zsh:zsh fish:fish; do
  command -v "${tool_package%%:*}" >/dev/null || missing+=("${tool_package#*:}")
done
[ -f /usr/share/bash-completion/bash_completion ] || missing+=(bash-completion)
/usr/bin/python3 -c 'import dbus' 2>/dev/null || missing+=(python3-dbus)

if [ ${#missing[@]} -gt 0 ]; then
  sudo=$([ "$(id -u)" = 0 ] || echo sudo)
  echo "installing: ${missing[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi
