// SPDX-License-Identifier: GPL-2.0-or-later
// The extension's logic, written once for both of GNOME Shell's extension systems: the entry points
// (`extension-43.js`, `extension-45.js`) hand it the Shell's modules, and `packaging/build-shell-extension.sh`
// makes it a legacy `imports` module for GNOME 43-44 (as it is) or an ES module for GNOME 45 and later (with an
// `export` line added), and puts the service's interfaces' XML in place of INTERFACE_XML_FROM_THE_BUILD. A thin
// client of the service's D-Bus interfaces: it reads `GetActivities` once, then follows `ActivitiesChanged` and
// `VisibilityChanged`, and the day's data usage (`GetUsage`) at `UsageChanged` and when the menu opens; idle it has
// no timer and polls nothing.
//
// The Shell disables every extension when the screen locks and enables it again at unlock, many times a day, and
// at a logout may destroy the top bar before it disables anything: `start` keeps what it connects in one list and
// releases all of it, and cancels every call under way, in one place, whichever comes first.

/* exported start, INTERFACE_XML */

const BUS_NAME = 'org.example.NetworkActivity';
const OBJECT_PATH = '/org/example/NetworkActivity';
// The data usage and pausing are interfaces of their own, each at its object, named after it.
const USAGE_INTERFACE = 'org.example.NetworkActivity.Usage';
const PAUSE_INTERFACE = 'org.example.NetworkActivity.Pause';
// Owned while the extension is enabled: `netactivity-tray` follows its owner, and leaves the tray while it has one.
const INDICATOR_NAME = 'org.example.NetworkActivity.ShellIndicator';
const ICON_NAME = 'network-transmit-receive';
// The service's interfaces (dbus/org.example.NetworkActivity*.xml) by name, put here by the build.
var INTERFACE_XML = INTERFACE_XML_FROM_THE_BUILD;

/// The texts for people, in the session's language: the extension's gettext functions, which `start` takes from
/// the Shell (its catalogs are the project's, `po/`, in the build's `locale/` folder); English until then, as the
/// rules' checker runs them.
var _ = text => text;
var ngettext = (one, many, count) => count === 1 ? one : many;

/// A translated text's placeholders filled, as Swift's `localized` fills them: `%s` and `%d` in order, `%2$s` by
/// number, `%%` a percent sign.
function fill(template, ...values) {
    let next = 0;
    return template.replace(/%(?:(\d+)\$)?([sd%])/g, (_match, position, conversion) => {
        if (conversion === '%')
            return '%';
        const value = values[position ? Number(position) - 1 : next++];
        return value === undefined ? '' : String(value);
    });
}

/// The session's decimal separator: "1,2" in German, as Swift's `LocalFormats.tenths` writes it.
function tenths(count) {
    const separator = new Intl.NumberFormat().formatToParts(1.5).find(part => part.type === 'decimal')?.value ?? '.';
    return `${Math.floor(count / 10)}${separator}${count % 10}`;
}

/// The overall percent of the tray and `watch`: bytes moved of all the bytes to move when every activity has a
/// total, otherwise the mean of the known percents; rounded down (Swift's `OverallProgress`). These rules and the
/// Swift ones are tested against one table of cases, `Tests/Cases/indicator-rules.json`.
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

/// Bytes as people read them, in powers of a thousand to one decimal: `999 B`, `1.2 MB` (Swift's `ByteAmount`).
function byteAmount(bytes) {
    if (bytes < 1000)
        return `${bytes} B`;
    let value = bytes;
    for (const unit of ['kB', 'MB', 'GB', 'TB', 'PB']) {
        value /= 1000;
        if (value < 999.95 || unit === 'PB') {
            return `${tenths(Math.round(value * 10))} ${unit}`;
        }
    }
    return `${bytes} B`;
}

/// An age to the minute: `42 s`, `3 min`, `2 h 5 min` (Swift's `ElapsedTime.coarse`).
function elapsed(seconds) {
    const whole = Math.max(0, Math.floor(seconds));
    if (whole < 60)
        return fill(_('%d s'), whole);
    const minutes = Math.floor(whole / 60);
    if (minutes < 60)
        return fill(_('%d min'), minutes);
    const hours = Math.floor(minutes / 60);
    return minutes % 60 === 0 ? fill(_('%d h'), hours) : fill(_('%d h %d min'), hours, minutes % 60);
}

/// The day's data usage from `GetUsage`'s records (`a{sv}` each): its total, its metered part and the five apps
/// that used most with their shares (Swift's `DataUsedToday`).
function usedToday(records, day) {
    const rows = records.map(record => Object.fromEntries(Object.entries(record).map(([key, value]) =>
        [key, value.deepUnpack()]))).filter(row => row.day === day);
    const bytes = row => (row.received ?? 0) + (row.sent ?? 0);
    const total = rows.reduce((sum, row) => sum + bytes(row), 0);
    const metered = rows.filter(row => row.metered).reduce((sum, row) => sum + bytes(row), 0);
    const perApp = new Map();
    for (const row of rows) {
        const app = perApp.get(row.app) ?? {app: row.app, label: row.label, bytes: 0};
        app.bytes += bytes(row);
        perApp.set(row.app, app);
    }
    const apps = [...perApp.values()].sort((a, b) => b.bytes - a.bytes || (a.app < b.app ? -1 : 1)).slice(0, 5)
        .map(app => ({...app, share: total > 0 ? app.bytes / total : 0}));
    return {total, metered, apps};
}

/// One record of `GetActivities`, `(u a{sv})`, as a plain object.
function activityOf([id, record]) {
    const value = key => record[key]?.deepUnpack();
    return {
        id, label: value('label') ?? '', app: value('app'), system: value('system') ?? false,
        source: value('source'), started: value('started') ?? 0, percent: value('percent'), done: value('done'),
        total: value('total'), rate: value('rate'), cancellable: value('cancellable') ?? false,
        cancelRequested: value('cancel-requested') ?? false, user: value('user'), paused: value('paused'),
    };
}

/// Starts the indicator: `shell` holds the Shell's modules (St, Gio, GLib, GObject, Clutter, Shell, Main,
/// PanelMenu, PopupMenu, BarLevel) and the extension's gettext and ngettext. Returns what stops it.
var start = function (shell) {
    const {St, Gio, GLib, GObject, Clutter, Shell, Main, PanelMenu, PopupMenu, BarLevel} = shell;
    _ = shell.gettext;
    ngettext = shell.ngettext;
    // St 48 added `orientation` to its boxes and deprecated `vertical`, which St 51 removed.
    const column = GObject.Object.find_property.call(St.BoxLayout, 'orientation')
        ? {orientation: Clutter.Orientation.VERTICAL} : {vertical: true};

    // Everything that undoes what starting did, run once, newest first.
    const undo = [];
    const cancellable = new Gio.Cancellable();
    let released = false;
    let activities = new Map();
    let stopping = new Set();
    // The day's data usage, where the system service counts it (`GetUsage`); null where it does not.
    let usage = null;
    // The menu's rows, by activity, each brought up to date in place; what the menu was built for (its rows, their
    // parts, the day's usage: it is built again only when these change) and what its rows last showed.
    let rows = new Map();
    let usageShown = null;
    let built = null;
    let shown = null;
    // This session's user, whose apps (root: every app) the menu may pause.
    const ownUser = new Gio.Credentials().get_unix_user();

    function release() {
        if (released)
            return;
        released = true;
        cancellable.cancel();
        for (const step of undo.reverse())
            step();
    }

    const button = new PanelMenu.Button(0.0, _('Network activity'), false);
    /// Shows or hides the indicator. Hidden while the keyboard is on it (the last activity ended), the keyboard
    /// and a screen reader would be left on nothing: they go back to the top bar.
    function setVisible(visible) {
        const focus = global.stage.key_focus;
        const hadFocus = button.menu.isOpen || (focus !== null && button.contains(focus));
        if (!visible)
            button.menu.close();
        button.visible = visible;
        if (!visible && hadFocus)
            Main.panel.navigate_focus(null, St.DirectionType.TAB_FORWARD, false);
    }

    const box = new St.BoxLayout({style_class: 'panel-status-indicators-box'});
    box.add_child(new St.Icon({icon_name: ICON_NAME, style_class: 'system-status-icon'}));
    const percentLabel = new St.Label({text: '', y_align: Clutter.ActorAlign.CENTER, visible: false});
    box.add_child(percentLabel);
    button.add_child(box);
    button.visible = false;
    Main.panel.addToStatusArea('netactivity', button);
    // At a logout the Shell may destroy the top bar while the service's last signals are still being dispatched.
    const destroyID = button.connect('destroy', release);
    undo.push(() => button.disconnect(destroyID));
    // The rows, and their ages, are made when the menu opens: no timer runs, and a closed menu costs nothing.
    const openID = button.menu.connect('open-state-changed', (_menu, open) => {
        if (open) {
            render(true);
            readUsage(serviceOwner);
        }
    });
    undo.push(() => button.menu.disconnect(openID));

    /// Brings the indicator up to date, and its menu when it is open and shows something else now (`force`: its
    /// ages too, as it opens): rows change in place, and the menu is built again only when rows come or go.
    function render(force = false) {
        if (released)
            return;
        const list = [...activities.values()].sort((a, b) => a.id - b.id);
        const percent = overallPercent(list);
        percentLabel.text = percent === null ? '' : fill(_('%d %%'), percent);
        percentLabel.visible = percent !== null;
        button.accessible_name = percent === null ? _('Network activity')
            : fill(_('Network activity, %d %%'), percent);
        // A closed menu is brought up to date when it opens: progress reported many times a second costs the label
        // alone.
        // It keeps one row meanwhile, since an empty menu does not open.
        if (!button.menu.isOpen && !button.menu.isEmpty())
            return;
        const views = list.map(rowView);
        const now = GLib.get_real_time();
        const layout = JSON.stringify([views.map(rowParts), usageParts(usage)]);
        if (layout === built && !button.menu.isEmpty()) {
            // The same rows: their figures, names and buttons change in place, so that neither the keyboard nor a
            // screen reader loses the actor it is on (Pause becomes Resume on the same button).
            const showing = JSON.stringify([views, usage]);
            if (force || showing !== shown) {
                for (const view of views)
                    rows.get(view.id).update(view, now);
                usageShown?.update(usage);
            }
            shown = showing;
            return;
        }
        built = layout;
        shown = JSON.stringify([views, usage]);
        rebuild(views, now);
    }

    /// Builds the menu again, for rows that came or went and for the day's usage. The keyboard is taken off a
    /// button before it goes (a focused actor destroyed under GNOME Shell 48's accessibility bridge crashed it), and
    /// put back on the same row's button, or on the menu's first.
    function rebuild(views, now) {
        const focused = [...rows].find(([_id, activityRow]) => activityRow.action?.has_key_focus())?.[0];
        if (focused !== undefined)
            button.menu.actor.grab_key_focus();
        rows = new Map();
        button.menu.removeAll();
        for (const view of views) {
            const activityRow = row(view, now);
            rows.set(view.id, activityRow);
            button.menu.addMenuItem(activityRow.item);
        }
        if (views.length === 0)
            button.menu.addMenuItem(new PopupMenu.PopupMenuItem(_('No network activity'), {reactive: false}));
        usageShown = usageParts(usage) ? usageSection(usage) : null;
        if (focused !== undefined) {
            const action = rows.get(focused)?.action;
            if (action)
                action.grab_key_focus();
            else
                button.menu.actor.navigate_focus(null, St.DirectionType.TAB_FORWARD, false);
        }
    }

    /// What the day's usage shows that an update in place cannot change: the apps it has rows for; null when it
    /// shows nothing.
    function usageParts(used) {
        return used && used.total > 0 ? used.apps.map(app => app.app) : null;
    }

    /// The day's usage below the rows: its total and the five apps that used most, brought up to date in place by
    /// `update` while the same apps lead.
    function usageSection(used) {
        button.menu.addMenuItem(new PopupMenu.PopupSeparatorMenuItem());
        const headline = new PopupMenu.PopupMenuItem('', {reactive: false});
        button.menu.addMenuItem(headline);
        const appRows = used.apps.map(usedByApp => {
            const appRow = usageRow(usedByApp);
            button.menu.addMenuItem(appRow.item);
            return appRow;
        });
        function update(next) {
            headline.label.text = next.metered > 0
                ? fill(_('Used today: %s (%s metered)'), byteAmount(next.total), byteAmount(next.metered))
                : fill(_('Used today: %s'), byteAmount(next.total));
            next.apps.forEach((usedByApp, index) => appRows[index].update(usedByApp));
        }
        update(used);
        return {update};
    }

    /// One of the apps that used most today: its icon, its name and bytes, and a bar of its share of the day.
    function usageRow(usedByApp) {
        const item = new PopupMenu.PopupBaseMenuItem({reactive: false, can_focus: false});
        const app = Shell.AppSystem.get_default().lookup_app(`${usedByApp.app}.desktop`);
        const name = app?.get_name() ?? usedByApp.label ?? usedByApp.app;
        item.add_child(app ? app.create_icon_texture(24) : new St.Icon({icon_name: ICON_NAME, icon_size: 24}));
        const lines = new St.BoxLayout({...column, x_expand: true, style_class: 'netactivity-row'});
        const label = new St.Label();
        lines.add_child(label);
        // The Shell's level bar, as the progress's, in its sliders' colours.
        const bar = new BarLevel({style_class: 'slider netactivity-share', x_expand: false,
            x_align: Clutter.ActorAlign.START, reactive: false, can_focus: false});
        lines.add_child(bar);
        item.add_child(lines);
        function update(used) {
            const text = fill(_('%s — %s'), name, byteAmount(used.bytes));
            const percent = Math.round(used.share * 100);
            label.text = text;
            bar.value = used.share;
            bar.accessible_name = fill(_('%s: %d %% of today'), name, percent);
            item.accessible_name = fill(_('%s, %d %% of today'), text, percent);
        }
        update(usedByApp);
        return {item, update};
    }

    /// What an activity's row shows, but its age.
    function rowView(activity) {
        // The Shell's own table of applications, which its dash and app grid read and keep up to date.
        const app = activity.app ? Shell.AppSystem.get_default().lookup_app(`${activity.app}.desktop`) : null;
        const name = app?.get_name() ?? activity.app ?? '';
        // An app's traffic that the kernel measured comes through the system service, but is the app's: marked
        // as measured rather than as the system's.
        const marks = [activity.source === 'traffic' ? _('measured') : activity.system ? _('system') : null,
            activity.source === 'packagekit' ? 'PackageKit' : null].filter(mark => mark);
        // Measured traffic's label is only its app's id or name: the app's own name says it better.
        const title = activity.source === 'traffic' && name ? name
            : name && name !== activity.label ? fill(_('%s: %s'), name, activity.label) : activity.label || name;
        const marked = marks.length ? fill(_('%s (%s)'), title, marks.join(', ')) : title;
        const facts = [];
        if (activity.percent !== undefined)
            facts.push(fill(_('%d %%'), activity.percent));
        if (activity.done !== undefined) {
            facts.push(activity.total ? fill(_('%s of %s'), byteAmount(activity.done), byteAmount(activity.total))
                : byteAmount(activity.done));
        }
        if (activity.paused)
            facts.push(_('paused'));
        else if (activity.rate !== undefined)
            facts.push(fill(_('%s/s'), byteAmount(activity.rate)));
        let action = null;
        if (activity.cancelRequested || stopping.has(activity.id))
            action = 'stopping';
        else if (activity.cancellable)
            action = 'stop';
        else if (activity.paused !== undefined && (ownUser === 0 || activity.user === ownUser))
            action = activity.paused ? 'resume' : 'pause';
        return {id: activity.id, app: activity.app, label: activity.label, name, marked, facts, action,
            percent: activity.percent, started: activity.started};
    }

    /// What a row is made of, which an update in place cannot change: the menu is built again when it does.
    function rowParts(view) {
        return [view.id, view.app, view.percent !== undefined, view.action !== null];
    }

    /// An activity's row, built once for the parts `rowParts` names: `update` brings its texts, bar and button up to
    /// date with another view of the same activity. Its button stays while the row lasts: Stop becomes "Stopping…"
    /// (no longer pressed), Pause becomes Resume.
    function row(view, now) {
        // Reactive, so that a screen reader reads it as enabled, yet a click or hover does nothing to it.
        const item = new PopupMenu.PopupBaseMenuItem({reactive: true, activate: false, hover: false, can_focus: false});
        item.track_hover = false;
        const app = view.app ? Shell.AppSystem.get_default().lookup_app(`${view.app}.desktop`) : null;
        item.add_child(app ? app.create_icon_texture(24) : new St.Icon({icon_name: ICON_NAME, icon_size: 24}));
        const lines = new St.BoxLayout({...column, x_expand: true, style_class: 'netactivity-row'});
        const title = new St.Label();
        lines.add_child(title);
        // The Shell's own level bar, in its sliders' style: its colours follow the light and dark styles and the
        // accent colour, and it fills from the start of the line.
        const bar = view.percent === undefined ? null : new BarLevel({style_class: 'slider netactivity-progress',
            x_expand: false, x_align: Clutter.ActorAlign.START, reactive: false, can_focus: false});
        if (bar)
            lines.add_child(bar);
        const factsLabel = new St.Label({style_class: 'popup-inactive-menu-item'});
        lines.add_child(factsLabel);
        item.add_child(lines);
        let current = view;
        // A button the keyboard reaches (Tab, the arrows) and Enter or Space presses.
        const action = view.action === null ? null
            : new St.Button({y_align: Clutter.ActorAlign.CENTER, can_focus: true});
        if (action) {
            action.connect('clicked', () => act(current));
            item.add_child(action);
        }

        function update(next, at) {
            current = next;
            title.text = next.marked;
            if (bar) {
                bar.value = Math.min(next.percent, 100) / 100;
                bar.accessible_name = fill(_('%s: %s'), next.label || next.name, fill(_('%d %%'), next.percent));
            }
            const facts = [...next.facts, elapsed(Math.max(0, at - next.started) / 1e6)];
            factsLabel.text = facts.join(' · ');
            item.accessible_name = `${next.marked}, ${facts.join(', ')}`;
            if (!action)
                return;
            const who = next.label || next.name;
            const appName = next.name || who;
            const [label, accessibleName, styleClass] = {
                stop: [_('Stop'), fill(_('Stop %s'), who), 'button netactivity-stop'],
                // Asked: the button reads as text, greyed for a screen reader, and a press does nothing.
                stopping: [_('Stopping…'), fill(_('Stopping %s…'), who), 'netactivity-stopping'],
                pause: [_('Pause'), fill(_('Pause %s’s network'), appName), 'button netactivity-pause'],
                resume: [_('Resume'), fill(_('Resume %s’s network'), appName), 'button netactivity-pause'],
            }[next.action];
            action.label = label;
            action.accessible_name = accessibleName;
            action.style_class = styleClass;
            action.reactive = next.action !== 'stopping';
        }
        update(view, now);
        return {item, action, update};
    }

    /// What a row's button does, for what the row shows now.
    function act(view) {
        if (view.action === 'stop')
            requestStop(view.id);
        else if (view.action === 'pause' || view.action === 'resume')
            setPaused(view.id, view.action === 'pause');
    }

    // The interfaces' methods, by name, for the types of their replies; each interface at its own object.
    const interfaces = new Map(Object.entries(INTERFACE_XML).map(([name, xml]) =>
        [name, Gio.DBusNodeInfo.new_for_xml(xml).lookup_interface(name)]));
    function call(method, parameters, done, interfaceName = BUS_NAME) {
        const declared = interfaces.get(interfaceName).lookup_method(method);
        const replyType = `(${declared.out_args.map(arg => arg.signature).join('')})`;
        Gio.DBus.session.call(BUS_NAME, `/${interfaceName.replaceAll('.', '/')}`, interfaceName, method, parameters,
            new GLib.VariantType(replyType),
            Gio.DBusCallFlags.NO_AUTO_START, -1, cancellable, (connection, result) => {
                let reply = null;
                let failure = null;
                try {
                    reply = connection.call_finish(result).deepUnpack();
                } catch (error) {
                    failure = error;
                }
                // A reply to a call of an extension that was disabled meanwhile touches nothing.
                if (!released)
                    done(reply, failure);
            });
    }

    /// Asks the activity's program to stop it: the row says "Stopping…" from the click until the activity ends (the
    /// service's reply and its record's cancel-requested change nothing a person sees), or until the service refuses.
    function requestStop(id) {
        stopping.add(id);
        render();
        call('RequestCancel', new GLib.Variant('(u)', [id]), (_reply, error) => {
            if (!error)
                return;
            log(`netactivity: could not stop activity ${id}: ${error.message}`);
            stopping.delete(id);
            render();
        });
    }

    /// Pauses or resumes an app's network: the row changes when the service says it did (`ActivitiesChanged`).
    function setPaused(id, paused) {
        call(paused ? 'Pause' : 'Resume', new GLib.Variant('(u)', [id]), (_reply, error) => {
            if (error)
                log(`netactivity: could not ${paused ? 'pause' : 'resume'} activity ${id}: ${error.message}`);
        }, PAUSE_INTERFACE);
    }

    /// Reads the day's usage: when the service appears, says it changed (`UsageChanged`) and the menu opens.
    function readUsage(owner) {
        if (owner === null)
            return;
        const day = GLib.DateTime.new_now_local().format('%Y-%m-%d');
        call('GetUsage', new GLib.Variant('(sb)', [day, true]), (reply, error) => {
            if (owner !== serviceOwner)
                return;
            // Where nothing counts apps' traffic, the service says so: nothing to show.
            const read = error ? null : usedToday(reply[0], day);
            if (JSON.stringify(read) === JSON.stringify(usage))
                return;
            usage = read;
            render();
        }, USAGE_INTERFACE);
    }

    function readAll(owner) {
        readUsage(owner);
        call('GetActivities', null, (reply, error) => {
            if (error || owner !== serviceOwner) {
                if (error)
                    log(`netactivity: could not read the activities: ${error.message}`);
                return;
            }
            activities = new Map(reply[0].map(activityOf).map(activity => [activity.id, activity]));
            render();
        });
        Gio.DBus.session.call(BUS_NAME, OBJECT_PATH, 'org.freedesktop.DBus.Properties', 'Get',
            new GLib.Variant('(ss)', [BUS_NAME, 'Visible']), new GLib.VariantType('(v)'),
            Gio.DBusCallFlags.NO_AUTO_START, -1, cancellable, (connection, result) => {
                try {
                    const [visible] = connection.call_finish(result).deepUnpack();
                    if (!released && owner === serviceOwner)
                        setVisible(visible.deepUnpack());
                } catch (error) {
                    if (!released)
                        log(`netactivity: could not read Visible: ${error.message}`);
                }
            });
    }

    // The service's owner now: its activities are read again whenever it changes (a restart, a `--replace`).
    let serviceOwner = null;
    function serviceChanged(owner) {
        serviceOwner = owner;
        activities = new Map();
        stopping = new Set();
        usage = null;
        setVisible(false);
        render();
        if (owner !== null)
            readAll(owner);
    }

    function subscribe(signal, handler, interfaceName = BUS_NAME) {
        const id = Gio.DBus.session.signal_subscribe(BUS_NAME, interfaceName, signal,
            `/${interfaceName.replaceAll('.', '/')}`, null,
            Gio.DBusSignalFlags.NONE, (_connection, _sender, _path, _interface, _signal, parameters) => {
                if (!released)
                    handler(parameters.deepUnpack());
            });
        undo.push(() => Gio.DBus.session.signal_unsubscribe(id));
    }
    subscribe('VisibilityChanged', ([visible]) => setVisible(visible));
    subscribe('UsageChanged', () => readUsage(serviceOwner), USAGE_INTERFACE);
    subscribe('ActivitiesChanged', ([changed, ended]) => {
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
    const watchID = Gio.bus_watch_name_on_connection(Gio.DBus.session, BUS_NAME, Gio.BusNameWatcherFlags.NONE,
        (_connection, _name, owner) => {
            if (!released)
                serviceChanged(owner);
        },
        () => {
            if (!released)
                serviceChanged(null);
        });
    undo.push(() => Gio.bus_unwatch_name(watchID));

    const nameID = Gio.bus_own_name_on_connection(Gio.DBus.session, INDICATOR_NAME, Gio.BusNameOwnerFlags.NONE,
        null, null);
    undo.push(() => Gio.bus_unown_name(nameID));

    return {
        stop() {
            const destroyed = released;
            release();
            if (!destroyed)
                button.destroy();
        },
    };
};
