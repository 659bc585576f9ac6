// The entry point for GNOME Shell 45 and later, whose extensions are ES modules with a default Extension class.
import Clutter from 'gi://Clutter';
import Gio from 'gi://Gio';
import GLib from 'gi://GLib';
import St from 'gi://St';

import {Extension} from 'resource:///org/gnome/shell/extensions/extension.js';
import * as Main from 'resource:///org/gnome/shell/ui/main.js';
import * as PanelMenu from 'resource:///org/gnome/shell/ui/panelMenu.js';
import * as PopupMenu from 'resource:///org/gnome/shell/ui/popupMenu.js';

import {start} from './indicator.js';

export default class NetworkActivityExtension extends Extension {
    enable() {
        this._indicator = start({St, Gio, GLib, Clutter, Main, PanelMenu, PopupMenu}, this.path);
    }

    disable() {
        this._indicator?.stop();
        this._indicator = null;
    }
}
