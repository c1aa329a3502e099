// iCare's ring in GNOME Shell's top bar (issue 30): where no tray shows
// icared's status item, the same ring and menu, drawn by the Shell.
//
// While enabled it owns org.icare.Reminder.ShellRing on the session bus; icared's
// status item steps aside while that name has an owner, so the top bar has
// one ring also when the AppIndicator extension runs. There it also tells
// icared what only the Shell knows (state.js): a full-screen window that
// keeps reminders from showing, and GNOME's do-not-disturb and break keys.

import Gio from 'gi://Gio';

import * as Main from 'resource:///org/gnome/shell/ui/main.js';
import {Extension} from 'resource:///org/gnome/shell/extensions/extension.js';

import {Indicator} from './indicator.js';
import {ShellState} from './state.js';

const RING_NAME = 'org.icare.Reminder.ShellRing';

export default class ICareExtension extends Extension {
    enable() {
        this._indicator = new Indicator(this);
        Main.panel.addToStatusArea(this.uuid, this._indicator);
        this._state = new ShellState();
        this._nameId = Gio.bus_own_name_on_connection(Gio.DBus.session, RING_NAME,
            Gio.BusNameOwnerFlags.NONE, null, null);
    }

    disable() {
        Gio.bus_unown_name(this._nameId);
        this._nameId = 0;
        this._state.destroy();
        this._state = null;
        this._indicator.destroy();
        this._indicator = null;
    }
}
