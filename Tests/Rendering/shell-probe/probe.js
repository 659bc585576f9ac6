// A test's own GNOME Shell extension, never installed for users: it lets a test see and use the project's extension
// where no pointer can (headless Wayland), over D-Bus on the session bus, at /org/example/NetworkActivityProbe.
//   Describe() -> s   JSON: the indicator's visibility, accessible name, whether its menu is open and how often its
//                     menu was built (emptied and filled again) since the probe first saw it, and, for each
//                     actor of its menu that has
//                     an accessible name, that name and its kind (row, stop, pause, bar, option; a bar with its
//                     value, an option of the Limit submenu with whether it is marked chosen)
//   OpenMenu()        opens the indicator's menu, as a click does; CloseMenu() closes it
//   Press(s name) -> b  clicks the menu's button of that accessible name ("Stop backup"), or activates its item
//                     ("Limit Backup Tool’s speed" opens the submenu, "1 MB/s" chooses); false when there is none
//   Notifications() -> s  JSON: each notification in the Shell's message tray, its title, body and actions' labels
//   Act(s label) -> b  takes the action of that label of the newest notification that has one, as a click on it
//                     does; false when none has
// Written once for both extension systems: extension-43.js and extension-45.js hand it `Main` and `Gio`, as the
// project's own extension does.

/* exported serve */

const PROBE_XML = `<node><interface name="org.example.NetworkActivityProbe">
  <method name="Describe"><arg type="s" direction="out"/></method>
  <method name="OpenMenu"/>
  <method name="CloseMenu"/>
  <method name="Press"><arg type="s" direction="in"/><arg type="b" direction="out"/></method>
  <method name="Notifications"><arg type="s" direction="out"/></method>
  <method name="Act"><arg type="s" direction="in"/><arg type="b" direction="out"/></method>
</interface></node>`;

var serve = function (Main, Gio) {
    // Each menu's rebuilds, counted at its removeAll, the first step of every rebuild.
    let rebuilds = 0;
    const indicator = () => {
        const button = Main.panel.statusArea['netactivity'] ?? null;
        if (button && !button.menu._probeCounts) {
            const removeAll = button.menu.removeAll.bind(button.menu);
            button.menu.removeAll = () => {
                rebuilds++;
                removeAll();
            };
            button.menu._probeCounts = true;
        }
        return button;
    };
    const named = (actor, found = []) => {
        if (actor.accessible_name)
            found.push(actor);
        for (const child of actor.get_children())
            named(child, found);
        return found;
    };
    const kind = actor => {
        if (actor.value !== undefined && actor.maximum_value !== undefined)
            return 'bar';
        // By its style, not its label, which is in the session's language.
        if (actor.has_style_class_name?.('netactivity-stop'))
            return 'stop';
        if (actor.has_style_class_name?.('netactivity-pause'))
            return 'pause';
        if (actor.has_style_class_name?.('netactivity-stopping'))
            return 'stopping';
        if (actor.has_style_class_name?.('netactivity-limit-option'))
            return 'option';
        return 'row';
    };
    // GNOME 46 and later name a notification's body `body`, and an action is an object that is activated; before,
    // the body is `bannerBodyText`, and an action a label and a callback.
    const notifications = () => Main.messageTray.getSources().flatMap(source => source.notifications);
    const bodyOf = notification => notification.body ?? notification.bannerBodyText ?? '';
    const exported = Gio.DBusExportedObject.wrapJSObject(PROBE_XML, {
        Describe() {
            const button = indicator();
            if (!button)
                return JSON.stringify({present: false});
            return JSON.stringify({
                present: true, visible: button.visible, name: button.accessible_name, open: button.menu.isOpen, rebuilds,
                menu: named(button.menu.box).map(actor => ({
                    kind: kind(actor), name: actor.accessible_name,
                    ...kind(actor) === 'bar' ? {value: actor.value} : {},
                    // The Shell's ornaments: 0 none, 1 a dot, 2 a check mark, 4 (GNOME 47 on) an empty radio button.
                    ...kind(actor) === 'option' ? {chosen: actor._ornament === 1 || actor._ornament === 2} : {},
                })),
            });
        },
        OpenMenu() {
            indicator()?.menu.open();
        },
        CloseMenu() {
            indicator()?.menu.close();
        },
        Notifications() {
            return JSON.stringify(notifications().map(notification => ({
                title: notification.title, body: bodyOf(notification),
                actions: (notification.actions ?? []).map(action => action.label),
            })));
        },
        Act(label) {
            const action = notifications().reverse().flatMap(notification => notification.actions ?? [])
                .find(candidate => candidate.label === label);
            if (!action)
                return false;
            if (action.activate)
                action.activate();
            else
                action.callback();
            return true;
        },
        Press(name) {
            const button = indicator();
            const target = button ? named(button.menu.box).find(actor => actor.accessible_name === name) : null;
            if (!target)
                return false;
            // A menu item is activated, as a click or Return does; a button is clicked.
            if (typeof target.activate === 'function')
                target.activate(null);
            else
                target.emit('clicked', 1);
            return true;
        },
    });
    exported.export(Gio.DBus.session, '/org/example/NetworkActivityProbe');
    const nameID = Gio.bus_own_name_on_connection(Gio.DBus.session, 'org.example.NetworkActivityProbe',
        Gio.BusNameOwnerFlags.NONE, null, null);
    return () => {
        Gio.bus_unown_name(nameID);
        exported.unexport();
    };
};
