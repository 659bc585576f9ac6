// SPDX-License-Identifier: GPL-2.0-or-later
// The extension's logic, written once for both of GNOME Shell's extension systems: the entry points
// (`extension-43.js`, `extension-45.js`) hand it the Shell's modules, and `packaging/build-shell-extension.sh`
// joins its five parts (`rules.js`, `service.js`, `menu.js`, `notices.js` and this one, by job) into one
// `indicator.js`, a legacy `imports` module for GNOME 43-44 (as it is) or an ES module for GNOME 45 and later
// (with an `export` line added), and puts the service's interfaces' XML in place of INTERFACE_XML_FROM_THE_BUILD.
//
// The Shell disables every extension when the screen locks and enables it again at unlock, many times a day, and
// at a logout may destroy the top bar before it disables anything: `start` keeps what it connects in one list and
// releases all of it, and cancels every call under way, in one place, whichever comes first.

/* exported start, INTERFACE_XML */

// Owned while the extension is enabled: `netactivity-tray` follows its owner, and leaves the tray while it has one.
const INDICATOR_NAME = 'org.example.NetworkActivity.ShellIndicator';

/// Starts the indicator: `shell` holds the Shell's modules (St, Gio, GLib, GObject, Clutter, Shell, Main,
/// PanelMenu, PopupMenu, BarLevel, MessageTray), its major version (`shellMajor`) and the extension's gettext and
/// ngettext. Returns what stops it.
var start = function (shell) {
    const {St, Gio, Clutter, Main, PanelMenu} = shell;
    _ = shell.gettext;
    ngettext = shell.ngettext;

    // Everything that undoes what starting did, run once, newest first.
    const undo = [];
    let released = false;
    function release() {
        if (released)
            return;
        released = true;
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
    // At a logout the Shell may destroy the top bar while the service's last signals are still being dispatched;
    // it is taking its message tray down then too, which our notifications' source goes with.
    let shellGoing = false;
    const destroyID = button.connect('destroy', () => {
        shellGoing = true;
        release();
    });
    undo.push(() => button.disconnect(destroyID));

    // The menu is made once the service is followed, whose calls answer on later turns of the main loop.
    let menu = null;
    let notices = null;
    const service = followService(shell, {
        changed: () => render(), visibilityChanged: setVisible, plansRead: plans => notices?.show(plans),
    });
    undo.push(() => service.release());
    notices = makePlanNotices(shell, service);
    undo.push(() => notices.release(shellGoing));
    menu = makeMenu(shell, button, service);
    // The rows, and their ages, are made when the menu opens: no timer runs, and a closed menu costs nothing.
    const openID = button.menu.connect('open-state-changed', (_menu, open) => {
        if (open) {
            render(true);
            service.readUsage();
        }
    });
    undo.push(() => button.menu.disconnect(openID));

    /// Brings the indicator up to date (its overall percent, for the eye and a screen reader), and its menu.
    function render(force = false) {
        if (released || menu === null)
            return;
        const list = [...service.state.activities.values()].sort((a, b) => a.id - b.id);
        const percent = overallPercent(list);
        percentLabel.text = percent === null ? '' : fill(_('%d %%'), percent);
        percentLabel.visible = percent !== null;
        button.accessible_name = percent === null ? _('Network activity')
            : fill(_('Network activity, %d %%'), percent);
        menu.render(list, force);
    }

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
