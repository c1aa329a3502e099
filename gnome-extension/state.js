// What the Shell knows and icared needs, served at
// /org/icare/Reminder/ShellRing (docs/interface.md, "Behaviour worth knowing":
// One ring in the top bar). Each property follows the Shell's own signal or
// setting and says its change with PropertiesChanged; nothing is polled.
//
// - PrimaryMonitorInFullscreen: the message tray shows no banner of normal
//   urgency then, so icared holds the reminder back.
// - ShowBanners, SelectedBreaks: GNOME's do-not-disturb switch and its own
//   break reminders, which an icared in the Flatpak sandbox cannot read
//   (dconf is out of its reach there).

import Gio from 'gi://Gio';
import GLib from 'gi://GLib';

import * as Main from 'resource:///org/gnome/shell/ui/main.js';

export const STATE_PATH = '/org/icare/Reminder/ShellRing';
const STATE_INTERFACE = `<node>
  <interface name="org.icare.Reminder.ShellRing">
    <property name="PrimaryMonitorInFullscreen" type="b" access="read"/>
    <property name="ShowBanners" type="b" access="read"/>
    <property name="SelectedBreaks" type="as" access="read"/>
  </interface>
</node>`;

/**
 * @param {string} id a GSettings schema id
 * @returns {Gio.Settings|null} its settings, or null where the Shell's
 *   system has no such schema (GNOME before 48 has no break reminders)
 */
function settingsOrNull(id) {
    const schema = Gio.SettingsSchemaSource.get_default().lookup(id, true);
    return schema ? new Gio.Settings({settings_schema: schema}) : null;
}

export class ShellState {
    constructor() {
        this._fullscreen = this._fullscreenNow();
        this._notifications = settingsOrNull('org.gnome.desktop.notifications');
        this._breaks = settingsOrNull('org.gnome.desktop.break-reminders');
        this._object = Gio.DBusExportedObject.wrapJSObject(STATE_INTERFACE, this);
        this._object.export(Gio.DBus.session, STATE_PATH);
        global.display.connectObject('in-fullscreen-changed', () => this._fullscreenChanged(), this);
        if (this._notifications) {
            this._notifications.connectObject('changed::show-banners',
                () => this._announce('ShowBanners', GLib.Variant.new_boolean(this.ShowBanners)), this);
        }
        if (this._breaks) {
            this._breaks.connectObject('changed::selected-breaks',
                () => this._announce('SelectedBreaks', new GLib.Variant('as', this.SelectedBreaks)), this);
        }
    }

    get PrimaryMonitorInFullscreen() {
        return this._fullscreen;
    }

    get ShowBanners() {
        return this._notifications ? this._notifications.get_boolean('show-banners') : true;
    }

    get SelectedBreaks() {
        return this._breaks ? this._breaks.get_strv('selected-breaks') : [];
    }

    _fullscreenNow() {
        const primary = Main.layoutManager.primaryIndex;
        return primary >= 0 && global.display.get_monitor_in_fullscreen(primary);
    }

    _fullscreenChanged() {
        const fullscreen = this._fullscreenNow();
        if (fullscreen === this._fullscreen)
            return;
        this._fullscreen = fullscreen;
        this._announce('PrimaryMonitorInFullscreen', GLib.Variant.new_boolean(fullscreen));
    }

    _announce(property, value) {
        this._object.emit_property_changed(property, value);
    }

    destroy() {
        global.display.disconnectObject(this);
        if (this._notifications)
            this._notifications.disconnectObject(this);
        if (this._breaks)
            this._breaks.disconnectObject(this);
        this._object.unexport();
    }
}
