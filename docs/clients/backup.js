#!/usr/bin/gjs -m
// A backup that shows on the network indicator: GJS, as GNOME's apps and Shell extensions are written.
//
// Usage: gjs -m backup.js STEPS. Each step moves 1 MB and takes 50 ms; a cancel request from the panel stops it.
// The proxy is made from the interface XML that the package installs in dbus-1/interfaces.
import Gio from 'gi://Gio';
import GLib from 'gi://GLib';
import System from 'system';

const NAME = 'org.example.NetworkActivity';
const PATH = '/org/example/NetworkActivity';
const CHUNK = 1000000;

function interfaceXML() {
    for (const folder of GLib.get_system_data_dirs()) {
        const file = Gio.File.new_for_path(`${folder}/dbus-1/interfaces/${NAME}.xml`);
        try {
            return new TextDecoder().decode(file.load_contents(null)[1]);
        } catch {
            // Not installed in this folder.
        }
    }
    throw new Error(`${NAME}.xml is not installed`);
}

const steps = Number(ARGV[0]);
let done = 0;
let cancelled = false;
let service = null;
let activity = null;

try {
    const NetworkActivityProxy = Gio.DBusProxy.makeProxyWrapper(interfaceXML());
    service = NetworkActivityProxy(Gio.DBus.session, NAME, PATH, null, null,
        Gio.DBusProxyFlags.DO_NOT_LOAD_PROPERTIES | Gio.DBusProxyFlags.DO_NOT_AUTO_START);
    [activity] = service.BeginSync('backup');
    service.SetCancellableSync(activity, true);
    service.connectSignal('CancelRequested', (_proxy, _sender, [id]) => {
        if (id === activity)
            cancelled = true;
    });
} catch (error) {
    // The indicator is a nicety: without the service, the backup goes on unseen.
    printerr(`backup: the network indicator will not show it: ${error.message}`);
    activity = null;
}

const loop = new GLib.MainLoop(null, false);
GLib.timeout_add(GLib.PRIORITY_DEFAULT, 50, () => {
    if (!cancelled) {
        done += 1;
        if (activity !== null)
            service.SetTransferSync(activity, done * CHUNK, steps * CHUNK);
        if (done < steps)
            return GLib.SOURCE_CONTINUE;
    }
    if (activity !== null)
        service.EndSync(activity);
    print(cancelled ? 'cancelled' : 'done');
    loop.quit();
    return GLib.SOURCE_REMOVE;
});
loop.run();
System.exit(0);
