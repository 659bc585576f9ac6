// SPDX-License-Identifier: GPL-2.0-or-later
// The service as the extension follows it: a thin client of its D-Bus interfaces. It reads `GetActivities` once,
// then follows `ActivitiesChanged` and `VisibilityChanged`, the day's data usage (`GetUsage`) at `UsageChanged`
// and when asked, and the machine's data plans (`GetPlans`) at `PlansChanged`; idle it has no timer and polls
// nothing. Its state is read again whenever the service's owner
// changes (a restart, a `--replace`). One of the five parts the build joins into `indicator.js`.

const BUS_NAME = 'org.example.NetworkActivity';
// The data usage and pausing are interfaces of their own, each at its object, named after it.
const USAGE_INTERFACE = 'org.example.NetworkActivity.Usage';
const PAUSE_INTERFACE = 'org.example.NetworkActivity.Pause';
const PLANS_INTERFACE = 'org.example.NetworkActivity.Plans';
const LIMITS_INTERFACE = 'org.example.NetworkActivity.Limits';
// The service's interfaces (dbus/org.example.NetworkActivity*.xml) by name, put here by the build.
var INTERFACE_XML = INTERFACE_XML_FROM_THE_BUILD;

/// The object of one of the service's interfaces: named after it.
function objectPath(interfaceName) {
    return `/${interfaceName.replaceAll('.', '/')}`;
}

/// Follows the service on the session bus: `changed()` is called whenever what it holds (`activities`, `usage`,
/// `stopping`) changed, `visibilityChanged(visible)` when the indicator should appear or go, `plansRead(plans)`
/// with the machine's data plans (as `plansOf` reads them) when the service appears and at each `PlansChanged`.
/// Returns the state, the actions a row or a notification can ask for, and `release`, which cancels every call
/// under way and undoes every subscription.
function followService({Gio, GLib}, {changed, visibilityChanged, plansRead}) {
    const undo = [];
    const cancellable = new Gio.Cancellable();
    // This session's user: the day's usage it shows is its own apps' and the machine's services'.
    const ownUser = new Gio.Credentials().get_unix_user();
    let released = false;
    const state = {
        activities: new Map(),
        // The activities a Stop was pressed for, "Stopping…" until they end or the service refuses.
        stopping: new Set(),
        // The day's data usage, where the system service counts it (`GetUsage`); null where it does not.
        usage: null,
        // The machine's data plans (`GetPlans`, as `plansOf` reads them), which head the day's usage.
        plans: [],
        // The service's owner now; null while it is not running.
        owner: null,
    };

    // The interfaces' methods, by name, for the types of their replies; each interface at its own object.
    const interfaces = new Map(Object.entries(INTERFACE_XML).map(([name, xml]) =>
        [name, Gio.DBusNodeInfo.new_for_xml(xml).lookup_interface(name)]));
    function call(method, parameters, done, interfaceName = BUS_NAME, timeout = -1) {
        const declared = interfaces.get(interfaceName).lookup_method(method);
        const replyType = `(${declared.out_args.map(arg => arg.signature).join('')})`;
        Gio.DBus.session.call(BUS_NAME, objectPath(interfaceName), interfaceName, method, parameters,
            new GLib.VariantType(replyType),
            Gio.DBusCallFlags.NO_AUTO_START, timeout, cancellable, (connection, result) => {
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
        state.stopping.add(id);
        changed();
        call('RequestCancel', new GLib.Variant('(u)', [id]), (_reply, error) => {
            if (!error)
                return;
            log(`netactivity: could not stop activity ${id}: ${error.message}`);
            state.stopping.delete(id);
            changed();
        });
    }

    /// Pauses or resumes an app's network: the row changes when the service says it did (`ActivitiesChanged`).
    function setPaused(id, paused) {
        call(paused ? 'Pause' : 'Resume', new GLib.Variant('(u)', [id]), (_reply, error) => {
            if (error)
                log(`netactivity: could not ${paused ? 'pause' : 'resume'} activity ${id}: ${error.message}`);
        }, PAUSE_INTERFACE);
    }

    /// Changes the rule of every instance of the app `app` (`SetLimit`): `rate`, bytes a second both ways, 0 to
    /// lift its speed limit; `metered`, "pause" or "none". The row changes when the service holds it.
    function setLimit(app, {rate, metered}) {
        const change = {};
        if (rate !== undefined) {
            change.down = new GLib.Variant('t', rate);
            change.up = new GLib.Variant('t', rate);
        }
        if (metered !== undefined)
            change.metered = new GLib.Variant('s', metered);
        call('SetLimit', new GLib.Variant('(sa{sv})', [app, change]), (_reply, error) => {
            if (error)
                log(`netactivity: could not change the limits of ${app}: ${error.message}`);
        }, LIMITS_INTERFACE);
    }

    /// Reads the day's usage, and the plans, which grow with it: when the service appears, says it changed
    /// (`UsageChanged`) and the menu opens.
    function readUsage() {
        const owner = state.owner;
        if (owner === null)
            return;
        readPlans();
        const day = GLib.DateTime.new_now_local().format('%Y-%m-%d');
        call('GetUsage', new GLib.Variant('(sb)', [day, true]), (reply, error) => {
            if (owner !== state.owner)
                return;
            // Where nothing counts apps' traffic, the service says so: nothing to show.
            const read = error ? null : usedToday(reply[0], day, ownUser);
            if (JSON.stringify(read) === JSON.stringify(state.usage))
                return;
            state.usage = read;
            changed();
        }, USAGE_INTERFACE);
    }

    /// Reads the machine's data plans: when the service appears, and when it says one changed (`PlansChanged`).
    function readPlans() {
        const owner = state.owner;
        if (owner === null)
            return;
        call('GetPlans', null, (reply, error) => {
            // Where nothing counts apps' traffic, there are no plans to tell of.
            if (error || owner !== state.owner)
                return;
            const plans = plansOf(reply[0]);
            plansRead(plans);
            if (JSON.stringify(plans) === JSON.stringify(state.plans))
                return;
            state.plans = plans;
            changed();
        }, PLANS_INTERFACE);
    }

    /// Lets a used-up plan's apps go on until its period ends (`ResumePlan`): the service may have polkit ask the
    /// person first, which takes as long as they take.
    function resumePlan(network) {
        call('ResumePlan', new GLib.Variant('(s)', [network]), (_reply, error) => {
            if (error)
                log(`netactivity: could not resume the data plan of ${network}: ${error.message}`);
        }, PLANS_INTERFACE, 120000);
    }

    function readAll(owner) {
        readUsage();
        call('GetActivities', null, (reply, error) => {
            if (error || owner !== state.owner) {
                if (error)
                    log(`netactivity: could not read the activities: ${error.message}`);
                return;
            }
            state.activities = new Map(reply[0].map(activityOf).map(activity => [activity.id, activity]));
            changed();
        });
        Gio.DBus.session.call(BUS_NAME, objectPath(BUS_NAME), 'org.freedesktop.DBus.Properties', 'Get',
            new GLib.Variant('(ss)', [BUS_NAME, 'Visible']), new GLib.VariantType('(v)'),
            Gio.DBusCallFlags.NO_AUTO_START, -1, cancellable, (connection, result) => {
                try {
                    const [visible] = connection.call_finish(result).deepUnpack();
                    if (!released && owner === state.owner)
                        visibilityChanged(visible.deepUnpack());
                } catch (error) {
                    if (!released)
                        log(`netactivity: could not read Visible: ${error.message}`);
                }
            });
    }

    function serviceChanged(owner) {
        state.owner = owner;
        state.activities = new Map();
        state.stopping = new Set();
        state.usage = null;
        state.plans = [];
        visibilityChanged(false);
        changed();
        if (owner !== null)
            readAll(owner);
    }

    function subscribe(signal, handler, interfaceName = BUS_NAME) {
        const id = Gio.DBus.session.signal_subscribe(BUS_NAME, interfaceName, signal, objectPath(interfaceName),
            null, Gio.DBusSignalFlags.NONE, (_connection, _sender, _path, _interface, _signal, parameters) => {
                if (!released)
                    handler(parameters.deepUnpack());
            });
        undo.push(() => Gio.DBus.session.signal_unsubscribe(id));
    }
    subscribe('VisibilityChanged', ([visible]) => visibilityChanged(visible));
    subscribe('UsageChanged', () => readUsage(), USAGE_INTERFACE);
    subscribe('PlansChanged', () => readPlans(), PLANS_INTERFACE);
    subscribe('ActivitiesChanged', ([changedRecords, ended]) => {
        for (const record of changedRecords) {
            const activity = activityOf(record);
            state.activities.set(activity.id, activity);
        }
        for (const id of ended) {
            state.activities.delete(id);
            state.stopping.delete(id);
        }
        changed();
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

    return {
        state, requestStop, setPaused, setLimit, readUsage, resumePlan,
        release() {
            if (released)
                return;
            released = true;
            cancellable.cancel();
            for (const step of undo.reverse())
                step();
        },
    };
}
