// The entry point for GNOME Shell 43 and 44, whose extensions are `imports` modules with enable() and disable().
/* exported init */
'use strict';

const ExtensionUtils = imports.misc.extensionUtils;

class NetworkActivityExtension {
    enable() {
        const extension = ExtensionUtils.getCurrentExtension();
        this._indicator = extension.imports.indicator.start({
            St: imports.gi.St, Gio: imports.gi.Gio, GLib: imports.gi.GLib, Clutter: imports.gi.Clutter,
            Main: imports.ui.main, PanelMenu: imports.ui.panelMenu, PopupMenu: imports.ui.popupMenu,
        }, extension.path);
    }

    disable() {
        this._indicator?.stop();
        this._indicator = null;
    }
}

function init() {
    return new NetworkActivityExtension();
}
