#!/usr/bin/env bash
# Debian's newer desktops on this Debian 12 machine: a root made by mmdebstrap from Debian's archive, once, and kept
# in a cache outside the checkout, in which a script then runs in a private mount namespace with chroot (the
# programs tested are the release build, which carries its Swift runtime; docs/testing.md, "Today's desktops").
#
#   debian-root.sh make NAME      makes the root NAME unless it is there, made from the recipe below; prints its path
#   debian-root.sh run NAME SCRIPT [ARG...]
#                                 runs `bash SCRIPT ARG...` inside NAME (made first if missing); SCRIPT and every
#                                 path it is given must be under /tmp, which the root shares
#   debian-root.sh overlay NAME SCRIPT [ARG...]
#                                 the same in a throwaway copy of NAME (an overlay): what SCRIPT installs is gone
#                                 afterwards, the cached root untouched; NAME `host` is this machine's own root
#   debian-root.sh test NAME PRODUCTS SCRIPT [ARG...]
#   debian-root.sh test-overlay NAME PRODUCTS SCRIPT [ARG...]
#                                 runs Tests/Rendering's SCRIPT (e.g. tray-in-a-host.sh) inside NAME, or a throwaway
#                                 copy of it, on a copy of this folder and of the programs in PRODUCTS (the release
#                                 build); an ARG equal to PRODUCTS names that copy; every other path must be under /tmp
#
# NAME is SUITE-DESKTOP: trixie-gnome (Debian 13, GNOME Shell 48), trixie-plasma (Plasma 6), forky-gnome (testing,
# GNOME 50 today), sid-gnome (unstable, GNOME 51 today). The cache is $NETACTIVITY_ROOTS (default
# /var/cache/netactivity/roots); a root is made in a folder of its own and renamed when whole, under a lock, so that two
# runs at once make it once and neither sees half of it. A root whose recipe changed is made again.
set -euo pipefail
cache=${NETACTIVITY_ROOTS:-/var/cache/netactivity/roots}

# What every root has: the harness of Tests/Rendering/screen.sh (Xvfb, the buses, ImageMagick, xdotool, gdbus) and
# python3-gi, which takes Wayland's screenshots through the Shell's own interface.
common=dbus,dbus-x11,dbus-bin,libglib2.0-bin,xvfb,xauth,x11-utils,xdotool,imagemagick,python3-gi,python3-dbus,procps,psmisc
# GNOME's roots add AT-SPI and its Python binding, through which shell-extension-traffic.sh reads what a screen reader
# reads.
gnome=gnome-shell,gjs,gir1.2-gtk-4.0,dconf-gsettings-backend,dconf-service,libgl1-mesa-dri,libegl-mesa0,adwaita-icon-theme,fonts-cantarell,locales,at-spi2-core,python3-pyatspi
# The languages the GNOME roots' sessions speak in the translation test (shell-extension-language.sh), made from
# glibc's sources in the root once it is made.
languages="de_DE pl_PL"
plasma=plasma-workspace,plasma-desktop,kwin-x11,kded6,kactivitymanagerd,breeze-icon-theme,fonts-noto-core,qt6-svg-plugins,libgl1-mesa-dri,libegl-mesa0

recipe() { # NAME: prints "SUITE PACKAGES"
  local suite=${1%%-*} desktop=${1#*-}
  case "$suite" in trixie|forky|sid) ;; *) echo "no such suite: $suite" >&2; return 1 ;; esac
  case "$desktop" in
    gnome) echo "$suite $common,$gnome" ;;
    plasma) echo "$suite $common,$plasma" ;;
    *) echo "no such desktop: $desktop" >&2; return 1 ;;
  esac
}

make_root() {
  local name=$1 suite packages root=$cache/$1
  read -r suite packages < <(recipe "$name")
  mkdir -p "$cache"
  exec 9>"$cache/$name.lock"
  flock 9
  if [ "$(cat "$root/.netactivity-recipe" 2>/dev/null)" != "$suite $packages $languages" ]; then
    command -v mmdebstrap >/dev/null || {
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends mmdebstrap >&2 ||
        { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends mmdebstrap >&2; }
    }
    rm -rf "$root.partial" "$root"
    echo "making the $name root (Debian $suite) in $root, once: 1-3 minutes" >&2
    # testing's and unstable's Release files may be past their Valid-Until on the archive reached here.
    mmdebstrap --variant=apt --mode=root --quiet --aptopt='APT::Install-Recommends "false"' \
      --aptopt='Acquire::Check-Valid-Until "false"' --include="$packages" "$suite" "$root.partial" >&2
    chroot "$root.partial" dbus-uuidgen >"$root.partial/etc/machine-id"
    if [ -d "$root.partial/usr/share/i18n/charmaps" ]; then
      for language in $languages; do chroot "$root.partial" localedef -i "$language" -f UTF-8 "$language.UTF-8"; done
    fi
    rm -rf "$root.partial/var/cache/apt/archives/"*.deb
    echo "$suite $packages $languages" >"$root.partial/.netactivity-recipe"
    mv "$root.partial" "$root"
  fi
  exec 9>&-
  echo "$root"
}

# Runs SCRIPT with ARGS in ROOT, in a mount namespace of its own (nothing stays mounted): /proc, /dev and /sys, and the
# machine's /tmp, where the test's scratch folder is.
enter() {
  local root=$1; shift
  unshare --mount --propagation private bash -c '
    root=$1; shift
    mount -t proc proc "$root/proc" && mount --rbind /dev "$root/dev" && mount --rbind /sys "$root/sys" &&
      mount --bind /tmp "$root/tmp" && exec chroot "$root" /usr/bin/env -i PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin \
        TERM=dumb /bin/bash "$@"' enter "$root" "$@"
}

# Runs SCRIPT with ARGS in an overlay of ROOT whose changes are thrown away; they are kept in memory (a tmpfs of the
# namespace), which also keeps them apart from ROOT when ROOT is this machine's /.
enter_overlay() {
  local root=$1; shift
  local layers
  layers=$(mktemp -d /tmp/netactivity-overlay.XXXXXX)
  local status=0
  unshare --mount --propagation private bash -c '
    root=$1 layers=$2; shift 2
    mount -t tmpfs tmpfs "$layers" && mkdir "$layers/upper" "$layers/work" "$layers/merged" &&
    mount -t overlay overlay -o "lowerdir=$root,upperdir=$layers/upper,workdir=$layers/work" "$layers/merged" &&
      mount -t proc proc "$layers/merged/proc" && mount --rbind /dev "$layers/merged/dev" &&
      mount --rbind /sys "$layers/merged/sys" && mount --bind /tmp "$layers/merged/tmp" &&
      exec chroot "$layers/merged" /usr/bin/env -i PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin TERM=dumb \
        /bin/bash "$@"' enter "$root" "$layers" "$@" || status=$?
  rm -rf "$layers"
  return "$status"
}

# Copies this folder and PRODUCTS' programs under /tmp, then runs SCRIPT from there with `run` or `overlay`.
test_in_root() {
  local how=$1 name=$2 products=$3 script=$4
  shift 4
  local stage arguments=() argument status=0
  stage=$(mktemp -d /tmp/netactivity-root-test.XXXXXX)
  chmod 755 "$stage"
  cp -r "$(dirname "$0")" "$stage/Rendering"
  mkdir -p "$stage/products"
  cp "$products"/{netactivityd,netactivity,netactivity-tray} "$stage/products/"
  for argument in "$@"; do
    if [ "$argument" = "$products" ]; then arguments+=("$stage/products"); else arguments+=("$argument"); fi
  done
  bash "$0" "$how" "$name" "$stage/Rendering/$script" "${arguments[@]}" || status=$?
  rm -rf "$stage"
  return "$status"
}

command=${1:-}; name=${2:-}
[ -n "$command" ] && [ -n "$name" ] || { sed -n '2,25p' "$0" >&2; exit 2; }
case "$command" in
  make) make_root "$name" ;;
  run) root=$(make_root "$name"); enter "$root" "${@:3}" ;;
  overlay)
    if [ "$name" = host ]; then root=/; else root=$(make_root "$name"); fi
    enter_overlay "$root" "${@:3}" ;;
  test) test_in_root run "$name" "${@:3}" ;;
  test-overlay) test_in_root overlay "$name" "${@:3}" ;;
  *) echo "unknown command: $command" >&2; exit 2 ;;
esac
