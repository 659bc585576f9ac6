// SPDX-License-Identifier: GPL-2.0-or-later
// The indicator's menu: a row per activity (its app's icon and name, a bar of its progress, its figures and age,
// and its button: Stop, "Stopping…", Pause or Resume; under a measured app, its Limit submenu) and the day's data
// usage below them. Rows change in place;
// the menu is built again only when rows come or go, so that neither the keyboard nor a screen reader loses the
// actor it is on. One of the five parts the build joins into `indicator.js`.

const ICON_NAME = 'network-transmit-receive';

/// The menu of `button`, showing what `service` (`followService`) holds; `render(list, force)` brings it up to
/// date with the activities in `list`.
function makeMenu({St, Gio, GLib, GObject, Clutter, Shell, PopupMenu, BarLevel}, button, service) {
    // St 48 added `orientation` to its boxes and deprecated `vertical`, which St 51 removed.
    const column = GObject.Object.find_property.call(St.BoxLayout, 'orientation')
        ? {orientation: Clutter.Orientation.VERTICAL} : {vertical: true};
    // This session's user, whose apps (root: every app) the menu may pause.
    const ownUser = new Gio.Credentials().get_unix_user();
    // The menu's rows, by activity, each brought up to date in place; what the menu was built for (its rows, their
    // parts, the day's usage: it is built again only when these change) and what its rows last showed.
    let rows = new Map();
    let usageShown = null;
    let built = null;
    let shown = null;

    /// Brings the menu up to date with `list` when it is open and shows something else now (`force`: its ages too,
    /// as it opens): rows change in place, and the menu is built again only when rows come or go.
    function render(list, force = false) {
        const usage = service.state.usage;
        // A closed menu is brought up to date when it opens: progress reported many times a second costs the label
        // alone.
        // It keeps one row meanwhile, since an empty menu does not open.
        if (!button.menu.isOpen && !button.menu.isEmpty())
            return;
        const views = list.map(rowView);
        const now = GLib.get_real_time();
        const plans = service.state.plans;
        const layout = JSON.stringify([views.map(rowParts), usageParts(usage, plans)]);
        if (layout === built && !button.menu.isEmpty()) {
            // The same rows: their figures, names and buttons change in place, so that neither the keyboard nor a
            // screen reader loses the actor it is on (Pause becomes Resume on the same button).
            const showing = JSON.stringify([views, usage, plans]);
            if (force || showing !== shown) {
                for (const view of views)
                    rows.get(view.id).update(view, now);
                usageShown?.update(usage, plans);
            }
            shown = showing;
            return;
        }
        built = layout;
        shown = JSON.stringify([views, usage, plans]);
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
            if (activityRow.limits)
                button.menu.addMenuItem(activityRow.limits.item);
        }
        if (views.length === 0)
            button.menu.addMenuItem(new PopupMenu.PopupMenuItem(_('No network activity'), {reactive: false}));
        const {usage, plans} = service.state;
        usageShown = usageParts(usage, plans) ? usageSection(usage, plans) : null;
        if (focused !== undefined) {
            const action = rows.get(focused)?.action;
            if (action)
                action.grab_key_focus();
            else
                button.menu.actor.navigate_focus(null, St.DirectionType.TAB_FORWARD, false);
        }
    }

    /// What the day's usage shows that an update in place cannot change: the apps it has rows for, and the
    /// networks of the plans that head it; null when it shows nothing.
    function usageParts(used, plans) {
        const apps = used && used.total > 0 ? used.apps.map(app => app.app) : [];
        const networks = listedPlans(plans).map(plan => plan.network);
        return apps.length > 0 || networks.length > 0 ? [apps, networks] : null;
    }

    /// The plans shown, in order of their networks, at most five (Swift's `TrayMenu.listedPlans`).
    function listedPlans(plans) {
        return [...plans].sort((a, b) => a.network < b.network ? -1 : a.network > b.network ? 1 : 0).slice(0, 5);
    }

    /// The day's usage below the rows, headed by the machine's data plans, each with a bar of what it used of its
    /// cap: its total and the five apps that used most, brought up to date in place by `update` while the same
    /// apps lead and the same plans are set.
    function usageSection(used, plans) {
        button.menu.addMenuItem(new PopupMenu.PopupSeparatorMenuItem());
        const planRows = listedPlans(plans).map(plan => {
            const planRow = shareRow(plan.network, {withIcon: false});
            button.menu.addMenuItem(planRow.item);
            return planRow;
        });
        const headline = used && used.total > 0 ? new PopupMenu.PopupMenuItem('', {reactive: false}) : null;
        if (headline)
            button.menu.addMenuItem(headline);
        const appRows = (headline ? used.apps : []).map(usedByApp => {
            const app = Shell.AppSystem.get_default().lookup_app(`${usedByApp.app}.desktop`);
            const appRow = shareRow(app?.get_name() ?? usedByApp.label ?? usedByApp.app, {app});
            button.menu.addMenuItem(appRow.item);
            return appRow;
        });
        function update(next, nextPlans) {
            listedPlans(nextPlans).forEach((plan, index) => {
                // As Swift's `DataUsedToday.planPercent`: whole percents, rounded down, at most 100.
                const percent = plan.cap > 0 ? Math.min(100, Math.floor(plan.used * 100 / plan.cap)) : 100;
                const text = fill(_('%s: %s of %s (%d %%)'), plan.network, byteAmount(plan.used), byteAmount(plan.cap),
                    percent);
                planRows[index].update(text, plan.cap > 0 ? Math.min(1, plan.used / plan.cap) : 1,
                    // TRANSLATORS: what a screen reader says of a data plan's bar: "Phone hotspot: 80 % of its data plan".
                    fill(_('%s: %d %% of its data plan'), plan.network, percent));
            });
            if (!headline)
                return;
            headline.label.text = next.metered > 0
                ? fill(_('Used today: %s (%s metered)'), byteAmount(next.total), byteAmount(next.metered))
                : fill(_('Used today: %s'), byteAmount(next.total));
            next.apps.forEach((usedByApp, index) => {
                const row = appRows[index];
                const percent = Math.round(usedByApp.share * 100);
                const text = fill(_('%s — %s'), row.name, byteAmount(usedByApp.bytes));
                row.update(text, usedByApp.share, fill(_('%s: %d %% of today'), row.name, percent),
                    fill(_('%s, %d %% of today'), text, percent));
            });
        }
        update(used, plans);
        return {update};
    }

    /// A row with a bar of a share: a data plan's of its cap, or an app's of the day's usage, with the app's icon
    /// (the indicator's where it has none). `update(text, share, barName, rowName)` brings it up to date;
    /// `rowName` is what a screen reader says of the row, its text unless given.
    function shareRow(name, {app = null, withIcon = true}) {
        const item = new PopupMenu.PopupBaseMenuItem({reactive: false, can_focus: false});
        if (withIcon)
            item.add_child(app ? app.create_icon_texture(24) : new St.Icon({icon_name: ICON_NAME, icon_size: 24}));
        const lines = new St.BoxLayout({...column, x_expand: true, style_class: 'netactivity-row'});
        const label = new St.Label();
        lines.add_child(label);
        // The Shell's level bar, as the progress's, in its sliders' colours.
        const bar = new BarLevel({style_class: 'slider netactivity-share', x_expand: false,
            x_align: Clutter.ActorAlign.START, reactive: false, can_focus: false});
        lines.add_child(bar);
        item.add_child(lines);
        function update(text, share, barName, rowName = text) {
            label.text = text;
            bar.value = share;
            bar.accessible_name = barName;
            item.accessible_name = rowName;
        }
        return {item, name, update};
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
        const limit = limitText(activity);
        if (limit)
            facts.push(limit);
        let action = null;
        if (activity.cancelRequested || service.state.stopping.has(activity.id))
            action = 'stopping';
        else if (activity.cancellable)
            action = 'stop';
        else if (activity.paused !== undefined && (ownUser === 0 || activity.user === ownUser))
            action = activity.paused ? 'resume' : 'pause';
        // The speed limits of an app the menu may pause: its rule holds every instance of it, by its app id.
        const limits = (action === 'pause' || action === 'resume') && activity.app ? limitPresets(activity) : null;
        return {id: activity.id, app: activity.app, label: activity.label, name, marked, facts, action, limits,
            percent: activity.percent, started: activity.started};
    }

    /// What a row is made of, which an update in place cannot change: the menu is built again when it does.
    function rowParts(view) {
        return [view.id, view.app, view.percent !== undefined, view.action !== null, view.limits !== null];
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
        const limits = view.limits ? limitMenu(() => current) : null;

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
            limits?.update(next);
        }
        update(view, now);
        return {item, action, limits, update};
    }

    /// The Limit submenu under a measured app's row (Swift's `LimitPresets`): the speeds, "No limit" and "Pause on
    /// metered networks", those its rule holds marked; choosing one changes the rule of the app `view().app`
    /// (`SetLimit`), and the menu closes, as the Shell's own menus do when an item is chosen.
    function limitMenu(view) {
        const item = new PopupMenu.PopupSubMenuMenuItem('');
        const choice = (label, change) => {
            const option = new PopupMenu.PopupMenuItem(label, {style_class: 'netactivity-limit-option'});
            option.accessible_name = label;
            option.connect('activate', () => service.setLimit(view().app, change()));
            item.menu.addMenuItem(option);
            return option;
        };
        const speeds = [...LIMIT_RATES, 0].map(rate =>
            [rate, choice(rate === 0 ? _('No limit') : wholeRate(rate), () => ({rate}))]);
        item.menu.addMenuItem(new PopupMenu.PopupSeparatorMenuItem());
        const metered = choice(_('Pause on metered networks'),
            () => ({metered: view().limits.pausesOnMetered ? 'none' : 'pause'}));
        // GNOME 47 and later draw an empty radio button for a choice not taken; before, nothing.
        const notChosen = PopupMenu.Ornament.NO_DOT ?? PopupMenu.Ornament.NONE;
        function update(next) {
            const who = next.label || next.name;
            item.label.text = fill(_('Limit %s'), next.name || who);
            item.accessible_name = fill(_('Limit %s’s speed'), next.name || who);
            for (const [rate, option] of speeds)
                option.setOrnament(next.limits.chosen === rate ? PopupMenu.Ornament.DOT : notChosen);
            metered.setOrnament(next.limits.pausesOnMetered ? PopupMenu.Ornament.CHECK : PopupMenu.Ornament.NONE);
        }
        return {item, update};
    }

    /// What a row's button does, for what the row shows now.
    function act(view) {
        if (view.action === 'stop')
            service.requestStop(view.id);
        else if (view.action === 'pause' || view.action === 'resume')
            service.setPaused(view.id, view.action === 'pause');
    }

    return {render};
}
