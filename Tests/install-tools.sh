#!/usr/bin/env bash
# Installs, from Debian's packages, whatever the test suite needs and this machine lacks; does nothing when all of
# it is there. Tests/run.sh (the README's test command) runs it first, and so does .ci/run.
#   to build: libdbus-1-dev and pkg-config;
#   real D-Bus clients: dbus-daemon, dbus-send, gdbus, busctl, dbus-python; runuser for the two-user checks;
#   for the README's recipes: apt-config, systemd-analyze, unshare and nsenter;
#   on screen: a virtual X screen (Xvfb), screenshots (ImageMagick), the pointer (xdotool), and the real
#   desktops' programs: GNOME Shell with the AppIndicator extension, KDE Plasma, xfce4-panel, lxqt-panel, sway with
#   waybar, gtk-sni-tray, polybar, i3blocks and the notification server dunst;
#   the Debian package: dpkg-shlibdeps, lintian, and man to render the manual pages;
#   the completions: bash-completion's helpers, zsh and fish;
#   the benchmark's clients measurement: GNU time, for a short program's peak memory;
#   the client examples of docs/clients.md: GJS, gdbus-codegen and GIO's headers, sd-bus's headers, Qt 5's
#   qdbusxml2cpp, moc and headers, zbus and its crates as Debian packages them, and cargo where rustup's is not;
#   the Flatpak check: xdg-dbus-proxy;
#   the sources of activities: PackageKit's daemon and pkcon, and the polkit daemon PackageKit asks;
#   docks that draw apps' progress: Plank, and Dash to Dock in GNOME Shell;
#   Debian 13's and testing's desktops: mmdebstrap, which makes their roots (Tests/Rendering/debian-root.sh);
#   the translations: gettext's msgfmt and xgettext, and the German and Polish locales the tests run programs in;
#   apps' traffic: curl, which downloads from a paced local server, bpftool, which sees the kernel's programs, and
#   libseccomp's Python module, which applies the system unit's system call filter where no systemd runs;
#   data usage per network: NetworkManager and nmcli (run privately, in namespaces a test makes) and iproute2;
#   the release's link order (packaging/start-order.sh): valgrind, whose callgrind names the functions a start runs.
set -euo pipefail
# A normal user's PATH on Debian leaves out the sbin folders, where runuser and a few others live.
PATH="$PATH:/usr/sbin:/sbin"

missing=()
pkg-config --exists dbus-1 2>/dev/null || missing+=(libdbus-1-dev pkg-config)
for tool_package in dbus-daemon:dbus-daemon dbus-send:dbus-bin gdbus:libglib2.0-bin busctl:systemd \
                    runuser:util-linux nsenter:util-linux unshare:util-linux systemd-analyze:systemd apt-config:apt \
                    Xvfb:xvfb import:imagemagick xdotool:xdotool \
                    gtk-sni-tray-standalone:haskell-gtk-sni-tray-utils dpkg-shlibdeps:dpkg-dev lintian:lintian \
                    man:man-db zsh:zsh fish:fish dbus-run-session:dbus-daemon dbus-monitor:dbus-bin \
                    gnome-shell:gnome-shell plasmashell:plasma-workspace kded5:kded5 xfce4-panel:xfce4-panel \
                    xfconf-query:xfconf lxqt-panel:lxqt-panel sway:sway waybar:waybar polybar:polybar i3blocks:i3blocks \
                    dunst:dunst gjs:gjs gdbus-codegen:libglib2.0-dev-bin g++:g++ xdg-dbus-proxy:xdg-dbus-proxy \
                    /usr/lib/qt5/bin/qdbusxml2cpp:qtbase5-dev-tools pkcon:packagekit-tools \
                    /usr/libexec/packagekitd:packagekit /usr/lib/polkit-1/polkitd:polkitd plank:plank \
                    mmdebstrap:mmdebstrap msgfmt:gettext xgettext:gettext localedef:locales \
                    curl:curl /usr/sbin/bpftool:bpftool setpriv:util-linux /usr/sbin/NetworkManager:network-manager \
                    /usr/bin/nmcli:network-manager ip:iproute2 valgrind:valgrind; do
  command -v "${tool_package%%:*}" >/dev/null || missing+=("${tool_package#*:}")
done
[ -f /usr/share/bash-completion/bash_completion ] || missing+=(bash-completion)
# Not `command -v`: the shell's own `time` keyword would answer.
[ -x /usr/bin/time ] || missing+=(time)
# What the desktops need beside their own programs (docs/testing.md): the AppIndicator extension and the xauth
# GNOME wants; Plasma's activity manager (without it: "Aborting shell load"), its models and desktop; lxqt's theme.
for package in gnome-shell-extension-appindicator gnome-shell-extension-dashtodock gnome-shell-extension-prefs dbus-x11 xauth plasma-desktop \
               kactivitymanagerd qml-module-org-kde-kitemmodels lxqt-qtplugin fonts-dejavu-core; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "ok installed" || missing+=("$package")
done
for library_package in gio-2.0:libglib2.0-dev libsystemd:libsystemd-dev Qt5DBus:qtbase5-dev; do
  pkg-config --exists "${library_package%%:*}" 2>/dev/null || missing+=("${library_package#*:}")
done
compgen -G "/usr/share/cargo/registry/zbus-1.*" >/dev/null || missing+=(librust-zbus-dev)
command -v cargo >/dev/null || [ -x "$HOME/.cargo/bin/cargo" ] || missing+=(cargo)
/usr/bin/python3 -c 'import dbus' 2>/dev/null || missing+=(python3-dbus)
/usr/bin/python3 -c 'import seccomp' 2>/dev/null || missing+=(python3-seccomp)
/usr/bin/python3 -c 'from gi.repository import GLib' 2>/dev/null || missing+=(python3-gi)

if [ ${#missing[@]} -gt 0 ]; then
  sudo=$([ "$(id -u)" = 0 ] || echo sudo)
  echo "installing: ${missing[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi
# The locales the translation tests speak (docs/translating.md), made from glibc's sources: once, as localedef
# adds them to the machine's locale archive under its own lock.
for locale in de_DE pl_PL; do
  locale -a 2>/dev/null | grep -qix "$locale.utf-\?8" || ${sudo:-$([ "$(id -u)" = 0 ] || echo sudo)} \
    localedef --inputfile="$locale" --charmap=UTF-8 "$locale.UTF-8"
done
