// SPDX-License-Identifier: GPL-2.0-or-later
// The entry point for GNOME Shell 43 and 44, whose extensions are `imports` modules with enable() and disable().
/* exported init */
'use strict';

const ExtensionUtils = imports.misc.extensionUtils;

class NetworkActivityExtension {
    enable() {
        const {St, Gio, GLib, GObject, Clutter, Shell} = imports.gi;
        this._indicator = ExtensionUtils.getCurrentExtension().imports.indicator.start({
            St, Gio, GLib, GObject, Clutter, Shell, Main: imports.ui.main, PanelMenu: imports.ui.panelMenu,
            PopupMenu: imports.ui.popupMenu, BarLevel: imports.ui.barLevel.BarLevel, MessageTray: imports.ui.messageTray,
            shellMajor: Number(imports.misc.config.PACKAGE_VERSION.split('.')[0]),
            gettext: ExtensionUtils.gettext, ngettext: ExtensionUtils.ngettext,
        });
    }

    disable() {
        this._indicator?.stop();
        this._indicator = null;
    }
}

function init() {
    // The metadata's gettext-domain, bound to the extension's locale/ folder, for ExtensionUtils.gettext.
    ExtensionUtils.initTranslations();
    return new NetworkActivityExtension();
}
