import Gio from 'gi://Gio';
import {Extension} from 'resource:///org/gnome/shell/extensions/extension.js';
import * as Main from 'resource:///org/gnome/shell/ui/main.js';

import {serve} from './probe.js';

export default class ProbeExtension extends Extension {
    enable() {
        this._stop = serve(Main, Gio);
    }

    disable() {
        this._stop?.();
    }
}
