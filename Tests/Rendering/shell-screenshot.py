#!/usr/bin/env python3
"""Writes a PNG of GNOME Shell's whole screen to PATH through the Shell's own interface, for sessions with no X
screen to read (headless Wayland). GNOME 50 answers only a caller that owns org.gnome.SettingsDaemon.MediaKeys
(or the portal), GNOME 43-49 one that owns org.gnome.Screenshot: the helper owns both on the session bus.

Usage: shell-screenshot.py PATH   (exits 1, saying why, when the Shell does not answer)"""
import sys

import dbus

bus = dbus.SessionBus()
for name in ("org.gnome.Screenshot", "org.gnome.SettingsDaemon.MediaKeys"):
    bus.request_name(name, dbus.bus.NAME_FLAG_DO_NOT_QUEUE)
shell = bus.get_object("org.gnome.Shell.Screenshot", "/org/gnome/Shell/Screenshot")
try:
    success, _ = shell.Screenshot(False, False, sys.argv[1], dbus_interface="org.gnome.Shell.Screenshot",
                                  timeout=20)
except dbus.DBusException as error:
    sys.exit(f"no screenshot: {error.get_dbus_name()}: {error.get_dbus_message()}")
sys.exit(0 if success else "no screenshot: the Shell said it failed")
