// iCare's ring in GNOME Shell's top bar (issue 30): where no tray shows
// icared's status item, the same ring and menu, drawn by the Shell.
//
// While enabled it owns org.icare.Reminder.ShellRing on the session bus; icared's
// status item steps aside while that name has an owner, so the top bar has
// one ring also when the AppIndicator extension runs. There it also tells
// icared when a full-screen window keeps the Shell from showing reminders
// (docs/interface.md).

import Gio from 'gi://Gio';
import GLib from 'gi://GLib';

import * as Main from 'resource:///org/gnome/shell/ui/main.js';
import {Extension} from 'resource:///org/gnome/shell/extensions/extension.js';

import {Indicator} from './indicator.js';

const RING_NAME = 'org.icare.Reminder.ShellRing';
const RING_PATH = '/org/icare/Reminder/ShellRing';
const RING_INTERFACE = `<node>
  <interface name="org.icare.Reminder.ShellRing">
    <property name="PrimaryMonitorInFullscreen" type="b" access="read"/>
  </interface>
</node>`;

/**
 * The Shell's own word that a window fills the primary monitor: then its
 * message tray shows no banner of normal urgency, so icared holds the
 * reminder back instead of sending one nobody sees.
 */
class FullscreenWatch {
    constructor() {
        this._fullscreen = this._now();
        this._object = Gio.DBusExportedObject.wrapJSObject(RING_INTERFACE, this);
        this._object.export(Gio.DBus.session, RING_PATH);
        global.display.connectObject('in-fullscreen-changed', () => this._changed(), this);
    }

    get PrimaryMonitorInFullscreen() {
        return this._fullscreen;
    }

    _now() {
        const primary = Main.layoutManager.primaryIndex;
        return primary >= 0 && global.display.get_monitor_in_fullscreen(primary);
    }

    _changed() {
        const fullscreen = this._now();
        if (fullscreen === this._fullscreen)
            return;
        this._fullscreen = fullscreen;
        this._object.emit_property_changed('PrimaryMonitorInFullscreen', GLib.Variant.new_boolean(fullscreen));
    }

    destroy() {
        global.display.disconnectObject(this);
        this._object.unexport();
    }
}

export default class ICareExtension extends Extension {
    enable() {
        this._indicator = new Indicator(this);
        Main.panel.addToStatusArea(this.uuid, this._indicator);
        this._fullscreen = new FullscreenWatch();
        this._nameId = Gio.bus_own_name_on_connection(Gio.DBus.session, RING_NAME,
            Gio.BusNameOwnerFlags.NONE, null, null);
    }

    disable() {
        Gio.bus_unown_name(this._nameId);
        this._nameId = 0;
        this._fullscreen.destroy();
        this._fullscreen = null;
        this._indicator.destroy();
        this._indicator = null;
    }
}
