// SPDX-License-Identifier: GPL-2.0-or-later
// The entry point for GNOME Shell 45 and later, whose extensions are ES modules with a default Extension class.
import Clutter from 'gi://Clutter';
import Gio from 'gi://Gio';
import GLib from 'gi://GLib';
import GObject from 'gi://GObject';
import Shell from 'gi://Shell';
import St from 'gi://St';

import {Extension} from 'resource:///org/gnome/shell/extensions/extension.js';
import {BarLevel} from 'resource:///org/gnome/shell/ui/barLevel.js';
import * as Config from 'resource:///org/gnome/shell/misc/config.js';
import * as Main from 'resource:///org/gnome/shell/ui/main.js';
import * as MessageTray from 'resource:///org/gnome/shell/ui/messageTray.js';
import * as PanelMenu from 'resource:///org/gnome/shell/ui/panelMenu.js';
import * as PopupMenu from 'resource:///org/gnome/shell/ui/popupMenu.js';

import {start} from './indicator.js';

export default class NetworkActivityExtension extends Extension {
    enable() {
        // The Shell binds the metadata's gettext-domain to the extension's locale/ folder before it enables it.
        this._indicator = start({
            St, Gio, GLib, GObject, Clutter, Shell, Main, PanelMenu, PopupMenu, BarLevel, MessageTray,
            shellMajor: Number(Config.PACKAGE_VERSION.split('.')[0]),
            gettext: text => this.gettext(text), ngettext: (one, many, count) => this.ngettext(one, many, count),
        });
    }

    disable() {
        this._indicator?.stop();
        this._indicator = null;
    }
}
