#!/usr/bin/python3
"""A backup that shows on the network indicator: Python with GIO (python3-gi).

Usage: backup.py STEPS. Each step moves 1 MB and takes 50 ms; a cancel request from the panel stops it.
"""
import sys

from gi.repository import Gio, GLib

NAME = "org.example.NetworkActivity"
PATH = "/org/example/NetworkActivity"
CHUNK = 1_000_000

steps = int(sys.argv[1])
done = 0
cancelled = False
service = activity = None


def on_signal(proxy, sender, signal, parameters):
    global cancelled
    if signal == "CancelRequested" and parameters[0] == activity:
        cancelled = True


try:
    service = Gio.DBusProxy.new_for_bus_sync(
        Gio.BusType.SESSION, Gio.DBusProxyFlags.DO_NOT_LOAD_PROPERTIES | Gio.DBusProxyFlags.DO_NOT_AUTO_START,
        None, NAME, PATH, NAME)
    activity = service.Begin("(s)", "backup")
    service.SetCancellable("(ub)", activity, True)
    service.connect("g-signal", on_signal)
except GLib.Error as error:
    # The indicator is a nicety: without the service, the backup goes on unseen.
    print(f"backup: the network indicator will not show it: {error.message}", file=sys.stderr)
    activity = None


def step():
    global done
    if not cancelled:
        done += 1
        if activity is not None:
            service.SetTransfer("(utt)", activity, done * CHUNK, steps * CHUNK)
        if done < steps:
            return GLib.SOURCE_CONTINUE
    if activity is not None:
        service.End("(u)", activity)
    print("cancelled" if cancelled else "done", flush=True)
    loop.quit()
    return GLib.SOURCE_REMOVE


loop = GLib.MainLoop()
GLib.timeout_add(50, step)
loop.run()
