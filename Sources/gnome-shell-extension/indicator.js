// The extension's logic, written once for both of GNOME Shell's extension systems: the entry points
// (`extension-43.js`, `extension-45.js`) hand it the Shell's modules, and `packaging/build-shell-extension.sh`
// makes it a legacy `imports` module for GNOME 43-44 (as it is) or an ES module for GNOME 45 and later (with an
// `export` line added). A thin client of the service's D-Bus interface: it reads `GetActivities` once, then follows
// `ActivitiesChanged` and `VisibilityChanged`; idle it has no timer and polls nothing.

/* exported start */

const BUS_NAME = 'org.example.NetworkActivity';
const OBJECT_PATH = '/org/example/NetworkActivity';
// Owned while the extension is enabled: `netactivity-tray` follows its owner, and leaves the tray while it has one.
const INDICATOR_NAME = 'org.example.NetworkActivity.ShellIndicator';
const ICON_NAME = 'network-transmit-receive';
const BAR_WIDTH = 240;

/// The overall percent of the tray and `watch`: bytes moved of all the bytes to move when every activity has a
/// total, otherwise the mean of the known percents; rounded down.
function overallPercent(activities) {
    if (activities.length === 0)
        return null;
    if (activities.every(activity => (activity.total ?? 0) > 0)) {
        const done = activities.reduce((sum, a) => sum + Math.min(a.done ?? 0, a.total), 0);
        const total = activities.reduce((sum, a) => sum + a.total, 0);
        return Math.min(100, Math.floor(done * 100 / total));
    }
    const known = activities.map(a => a.percent).filter(percent => percent !== undefined);
    if (known.length === 0)
        return null;
    return Math.floor(known.reduce((sum, percent) => sum + Math.min(percent, 100), 0) / known.length);
}

function byteAmount(bytes) {
    const units = ['B', 'kB', 'MB', 'GB', 'TB'];
    let value = bytes;
    let unit = 0;
    while (value >= 1000 && unit < units.length - 1) {
        value /= 1000;
        unit += 1;
    }
    return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${units[unit]}`;
}

function elapsed(seconds) {
    if (seconds < 60)
        return `${Math.floor(seconds)} s`;
    if (seconds < 3600)
        return `${Math.floor(seconds / 60)} min`;
    return `${Math.floor(seconds / 3600)} h ${Math.floor(seconds / 60) % 60} min`;
}

/// One record of `GetActivities`, `(u a{sv})`, as a plain object.
function activityOf([id, record]) {
    const value = key => record[key]?.deepUnpack();
    return {
        id, label: value('label') ?? '', app: value('app'), system: value('system') ?? false,
        source: value('source'), started: value('started') ?? 0, percent: value('percent'), done: value('done'),
        total: value('total'), rate: value('rate'), cancellable: value('cancellable') ?? false,
        cancelRequested: value('cancel-requested') ?? false,
    };
}

/// Starts the indicator: `shell` holds the Shell's modules (St, Gio, GLib, Clutter, Main, PanelMenu, PopupMenu),
/// `path` is the extension's folder. Returns what stops it.
var start = function (shell, path) {
    const {St, Gio, GLib, Clutter, Main, PanelMenu, PopupMenu} = shell;
    const [, xmlBytes] = GLib.file_get_contents(`${path}/${BUS_NAME}.xml`);
    const ServiceProxy = Gio.DBusProxy.makeProxyWrapper(new TextDecoder().decode(xmlBytes));

    const button = new PanelMenu.Button(0.0, 'Network activity', false);
    const box = new St.BoxLayout({style_class: 'panel-status-indicators-box'});
    box.add_child(new St.Icon({icon_name: ICON_NAME, style_class: 'system-status-icon'}));
    const percentLabel = new St.Label({text: '', y_align: Clutter.ActorAlign.CENTER, visible: false});
    box.add_child(percentLabel);
    button.add_child(box);
    button.visible = false;
    Main.panel.addToStatusArea('netactivity', button);
    // The rows, and their ages, are made when the menu opens: no timer runs, and a closed menu costs nothing.
    button.menu.connect('open-state-changed', (_menu, open) => {
        if (open)
            render();
    });

    let activities = new Map();
    let stopping = new Set();
    let proxy = null;
    let destroyed = false;

    function render() {
        const list = [...activities.values()].sort((a, b) => a.id - b.id);
        const percent = overallPercent(list);
        percentLabel.text = percent === null ? '' : `${percent} %`;
        percentLabel.visible = percent !== null;
        // A closed menu is rebuilt when it opens: progress reported many times a second costs the label alone.
        // It keeps one row meanwhile, since an empty menu does not open.
        if (!button.menu.isOpen && !button.menu.isEmpty())
            return;
        button.menu.removeAll();
        const now = GLib.get_real_time();
        for (const activity of list)
            button.menu.addMenuItem(row(activity, now));
        if (list.length === 0)
            button.menu.addMenuItem(new PopupMenu.PopupMenuItem('No network activity', {reactive: false}));
    }

    function row(activity, now) {
        const item = new PopupMenu.PopupBaseMenuItem({reactive: false, can_focus: false});
        const info = activity.app ? Gio.DesktopAppInfo.new(`${activity.app}.desktop`) : null;
        const name = info?.get_name() ?? activity.app ?? '';
        const appIcon = info?.get_icon();
        item.add_child(new St.Icon(appIcon ? {gicon: appIcon, icon_size: 24} : {icon_name: ICON_NAME, icon_size: 24}));
        const column = new St.BoxLayout({vertical: true, x_expand: true});
        const marks = [activity.system ? 'system' : null, activity.source === 'packagekit' ? 'PackageKit' : null]
            .filter(mark => mark);
        const title = name && name !== activity.label ? `${name}: ${activity.label}` : activity.label || name;
        column.add_child(new St.Label({text: marks.length ? `${title} (${marks.join(', ')})` : title}));
        if (activity.percent !== undefined) {
            const bar = new St.Widget({
                style: `background-color: rgba(255, 255, 255, 0.2); height: 6px; width: ${BAR_WIDTH}px;`,
                layout_manager: new Clutter.BinLayout(),
            });
            const fill = Math.round(BAR_WIDTH * Math.min(activity.percent, 100) / 100);
            bar.add_child(new St.Widget({
                style: `background-color: #3584e4; height: 6px; width: ${fill}px;`,
                x_align: Clutter.ActorAlign.START,
            }));
            column.add_child(bar);
        }
        const facts = [];
        if (activity.percent !== undefined)
            facts.push(`${activity.percent} %`);
        if (activity.done !== undefined)
            facts.push(activity.total ? `${byteAmount(activity.done)} of ${byteAmount(activity.total)}` : byteAmount(activity.done));
        if (activity.rate !== undefined)
            facts.push(`${byteAmount(activity.rate)}/s`);
        facts.push(elapsed(Math.max(0, now - activity.started) / 1e6));
        column.add_child(new St.Label({text: facts.join(' · '), style_class: 'popup-inactive-menu-item'}));
        item.add_child(column);
        if (activity.cancelRequested || stopping.has(activity.id)) {
            item.add_child(new St.Label({text: 'Stopping…', y_align: Clutter.ActorAlign.CENTER}));
        } else if (activity.cancellable) {
            const stop = new St.Button({
                label: 'Stop', style_class: 'button', y_align: Clutter.ActorAlign.CENTER, can_focus: true,
                style: 'background-color: #c01c28; color: white; padding: 4px 12px;',
            });
            stop.connect('clicked', () => {
                stopping.add(activity.id);
                render();
                proxy?.RequestCancelRemote(activity.id, (_, error) => {
                    if (error)
                        log(`netactivity: could not stop activity ${activity.id}: ${error.message}`);
                    stopping.delete(activity.id);
                    if (!destroyed)
                        render();
                });
            });
            item.add_child(stop);
        }
        return item;
    }

    function readAll() {
        proxy.GetActivitiesRemote((result, error) => {
            if (destroyed)
                return;
            if (error) {
                log(`netactivity: could not read the activities: ${error.message}`);
                return;
            }
            activities = new Map(result[0].map(activityOf).map(activity => [activity.id, activity]));
            render();
        });
    }

    function serviceChanged() {
        activities = new Map();
        stopping = new Set();
        button.visible = proxy.g_name_owner !== null && proxy.Visible === true;
        if (proxy.g_name_owner !== null)
            readAll();
        else
            render();
    }

    proxy = new ServiceProxy(Gio.DBus.session, BUS_NAME, OBJECT_PATH, (_, error) => {
        if (destroyed)
            return;
        if (error) {
            log(`netactivity: no proxy for the service: ${error.message}`);
            return;
        }
        proxy.connect('notify::g-name-owner', serviceChanged);
        proxy.connectSignal('VisibilityChanged', (_proxy, _sender, [visible]) => {
            button.visible = visible;
        });
        proxy.connectSignal('ActivitiesChanged', (_proxy, _sender, [changed, ended]) => {
            for (const record of changed) {
                const activity = activityOf(record);
                activities.set(activity.id, activity);
            }
            for (const id of ended) {
                activities.delete(id);
                stopping.delete(id);
            }
            render();
        });
        serviceChanged();
    }, null, Gio.DBusProxyFlags.DO_NOT_AUTO_START);

    const ownerID = Gio.bus_own_name(Gio.BusType.SESSION, INDICATOR_NAME, Gio.BusNameOwnerFlags.NONE,
        null, null, null);

    return {
        stop() {
            destroyed = true;
            Gio.bus_unown_name(ownerID);
            proxy = null;
            button.destroy();
        },
    };
};
