// The top bar's ring and its menu: a client of icared (org.icare.Reminder)
// over D-Bus, following its PropertiesChanged and its name; never polls.

import Clutter from 'gi://Clutter';
import Gio from 'gi://Gio';
import GLib from 'gi://GLib';
import GObject from 'gi://GObject';
import Shell from 'gi://Shell';
import St from 'gi://St';

import * as Main from 'resource:///org/gnome/shell/ui/main.js';
import * as PanelMenu from 'resource:///org/gnome/shell/ui/panelMenu.js';
import * as PopupMenu from 'resource:///org/gnome/shell/ui/popupMenu.js';

import {drawRing, faceOf} from './ring.js';
import * as Texts from './texts.js';

const BUS_NAME = 'org.icare.Reminder';
const OBJECT_PATH = '/org/icare/Reminder';
const INTERFACE_FILE = 'dbus-1/interfaces/org.icare.Reminder.xml';
// iCare's one id is icared's bus name and the app's desktop entry; the running app owns a name
// beneath it and serves GApplication's interface at OBJECT_PATH, the path GLib derives from the id.
const APP_BUS_NAME = `${BUS_NAME}.Window`;
const MICRO = 1000000;

/**
 * Where an installed iCare puts its interface description, the person's own first.
 *
 * @returns {Gio.File[]}
 */
function interfaceFiles() {
    return [GLib.get_user_data_dir(), ...GLib.get_system_data_dirs()]
        .map(dir => Gio.File.new_for_path(GLib.build_filenamev([dir, INTERFACE_FILE])));
}

/**
 * The sentence of a failed call: icared's own, without GDBus's prefix.
 *
 * @param {Error} error - from a *_finish call
 * @returns {string}
 */
function sentence(error) {
    if (error instanceof GLib.Error && Gio.DBusError.is_remote_error(error))
        Gio.DBusError.strip_remote_error(error);
    return error.message;
}

/**
 * Whether `error` says the operation was cancelled (the indicator went).
 *
 * @param {Error} error - any error
 * @returns {boolean}
 */
function cancelled(error) {
    return error instanceof GLib.Error && error.matches(Gio.IOErrorEnum, Gio.IOErrorEnum.CANCELLED);
}

export const Indicator = GObject.registerClass(
class Indicator extends PanelMenu.Button {
    _init(extension) {
        super._init(0.5, 'iCare', false);
        this._ext = extension;
        this._cancellable = new Gio.Cancellable();
        this._proxy = null;
        this._problem = null;
        this._timeoutId = 0;
        this._appWatchId = 0;
        this._appTimeoutId = 0;
        this._face = faceOf({state: 'inactive'}, 0);
        this._interfaceSettings = new Gio.Settings({schema_id: 'org.gnome.desktop.interface'});

        const box = new St.BoxLayout({style_class: 'panel-status-menu-box'});
        this._ring = new St.DrawingArea({style_class: 'icare-ring', y_align: Clutter.ActorAlign.CENTER});
        this._ring.connect('repaint', area => drawRing(area, this._face, this._running() ? 1 : 0.5));
        this._label = new St.Label({style_class: 'icare-label', y_align: Clutter.ActorAlign.CENTER});
        box.add_child(this._ring);
        box.add_child(this._label);
        this.add_child(box);

        this._buildMenu();
        this._update();
        this._loadInterface(interfaceFiles());
    }

    _buildMenu() {
        const t = this._ext;
        const item = (text, onActivate) => {
            const menuItem = new PopupMenu.PopupMenuItem(text);
            menuItem.connect('activate', onActivate);
            this.menu.addMenuItem(menuItem);
            return menuItem;
        };
        const separator = () => this.menu.addMenuItem(new PopupMenu.PopupSeparatorMenuItem());
        const call = (method, args) => menuItem => this._call(menuItem.label.text, method, args);

        this._stateItem = new PopupMenu.PopupMenuItem('', {reactive: false});
        this.menu.addMenuItem(this._stateItem);
        this._startService = item(t.gettext('Start iCare'), () => this._startIcared());
        separator();
        this._startItem = item(t.gettext('Start break now'), call('StartBreak', null));
        this._snoozeItem = item('', call('Snooze', new GLib.Variant('(u)', [0])));
        this._skipItem = item(t.gettext('Skip this break'), call('Skip', null));
        this._pauseItems = [
            item(t.gettext('Pause for 30 min'), call('Pause', new GLib.Variant('(u)', [1800]))),
            item(t.gettext('Pause for 1 hour'), call('Pause', new GLib.Variant('(u)', [3600]))),
            item(t.gettext('Pause until resumed'), call('Pause', new GLib.Variant('(u)', [0]))),
        ];
        this._resumeItem = item(t.gettext('Resume'), call('Resume', null));
        this._controls = [this._startItem, this._snoozeItem, this._skipItem, ...this._pauseItems, this._resumeItem];
        this._tallySeparator = new PopupMenu.PopupSeparatorMenuItem();
        this.menu.addMenuItem(this._tallySeparator);
        this._tallyItem = new PopupMenu.PopupMenuItem('', {reactive: false});
        this.menu.addMenuItem(this._tallyItem);
        // Shown once a phone is linked (Phones) or the setting is on: see docs/phones.md.
        this._phoneItem = new PopupMenu.PopupSwitchMenuItem(t.gettext('Remind my phone too'), false);
        this._phoneItem.connect('toggled', (menuItem, state) => this._call(menuItem.label.text,
            'org.freedesktop.DBus.Properties.Set',
            new GLib.Variant('(ssv)', [BUS_NAME, 'PhoneReminders', GLib.Variant.new_boolean(state)])));
        this.menu.addMenuItem(this._phoneItem);
        this._phonesItem = new PopupMenu.PopupMenuItem('', {reactive: false});
        this.menu.addMenuItem(this._phonesItem);
        // Shown while an entry of Capabilities is missing: the app's page "This desktop" says which.
        this._cannotSeeItem = item(t.gettext('iCare cannot see everything here…'), () => this._openApp('desktop'));
        separator();
        item(t.gettext('Open iCare'), () => this._openApp(null));
        item(t.gettext('Preferences'), () => this._openApp('preferences'));
    }

    // The service: its interface description, then a proxy that follows its name.

    _loadInterface(files) {
        if (files.length === 0) {
            // The file's name is for the log (journalctl /usr/bin/gnome-shell); the menu says it in words.
            console.warn(`iCare: ${INTERFACE_FILE} is in none of the data folders; the ring cannot talk to icared`);
            this._problem = this._ext.gettext('A part of iCare is missing; install iCare again.');
            this._update();
            return;
        }
        const [file, ...rest] = files;
        file.load_contents_async(this._cancellable, (source, result) => {
            let info = null;
            try {
                const [, contents] = source.load_contents_finish(result);
                const xml = new TextDecoder().decode(contents);
                info = Gio.DBusNodeInfo.new_for_xml(xml).lookup_interface(BUS_NAME);
            } catch (e) {
                if (cancelled(e))
                    return;
            }
            if (info)
                this._makeProxy(info);
            else
                this._loadInterface(rest);
        });
    }

    _makeProxy(info) {
        // Not started by the proxy: the menu offers to start it.
        Gio.DBusProxy.new(Gio.DBus.session, Gio.DBusProxyFlags.DO_NOT_AUTO_START, info,
            BUS_NAME, OBJECT_PATH, BUS_NAME, this._cancellable, (source, result) => {
                try {
                    this._proxy = Gio.DBusProxy.new_finish(result);
                } catch (e) {
                    if (!cancelled(e)) {
                        this._problem = sentence(e);
                        this._update();
                    }
                    return;
                }
                this._proxy.connectObject(
                    'g-properties-changed', () => this._update(),
                    'notify::g-name-owner', () => this._update(),
                    this);
                this._update();
            });
    }

    _running() {
        return this._proxy !== null && this._proxy.g_name_owner !== null &&
            this._proxy.get_cached_property('State') !== null;
    }

    _status() {
        const value = (name, fallback) => {
            const variant = this._proxy.get_cached_property(name);
            return variant ? variant.deepUnpack() : fallback;
        };
        const scale = Math.max(1, value('TimeScale', 1));
        return {
            state: value('State', 'inactive'),
            pauseReason: value('PauseReason', ''),
            busySource: value('BusySource', ''),
            nextBreak: value('NextBreak', 0),
            breakEnds: value('BreakEnds', 0),
            pausedUntil: value('PausedUntil', 0),
            completedToday: value('CompletedToday', 0),
            skippedToday: value('SkippedToday', 0),
            missedToday: value('MissedToday', 0),
            interval: value('Interval', 1200) * MICRO / scale,
            snooze: value('SnoozeDuration', 300) * MICRO / scale,
            snoozeSeconds: value('SnoozeDuration', 300),
            breakLength: value('BreakDuration', 20) * MICRO,
            shown: value('StatusItem', true),
            phones: value('Phones', []),
            phoneReminders: value('PhoneReminders', false),
            cannotSee: Texts.cannotSee(value('Capabilities', [])),
        };
    }

    _clock(time) {
        const twelve = this._interfaceSettings.get_string('clock-format') === '12h';
        const date = GLib.DateTime.new_from_unix_local(Math.floor(time / MICRO));
        return date.format(twelve ? '%l:%M %p' : '%R').trim();
    }

    // What is shown: worked out again on every change and at the ring's next step.

    _update() {
        if (this._timeoutId) {
            GLib.Source.remove(this._timeoutId);
            this._timeoutId = 0;
        }
        const t = this._ext;
        const running = this._running();
        const status = running ? this._status() : null;
        this._face = running ? faceOf(status, GLib.get_real_time()) : faceOf({state: 'inactive'}, 0);
        this._ring.queue_repaint();
        this.visible = !running || status.shown;

        let words;
        if (running) {
            const clock = time => this._clock(time);
            this._label.text = Texts.label(t, this._face);
            this._stateItem.label.text = Texts.headline(t, status, clock);
            this._tallyItem.label.text = Texts.tally(t, status);
            this._snoozeItem.label.text = Texts.snooze(t, status.snoozeSeconds);
            words = Texts.accessibleName(t, status, this._face, clock);
        } else {
            this._label.text = '';
            // Nothing is said in the moment before the proxy is made.
            words = this._problem || (this._proxy ? t.gettext('iCare is not running') : 'iCare');
            this._stateItem.label.text = words;
        }
        this.accessible_name = words;
        this._startService.visible = !running && this._proxy !== null;
        for (const control of this._controls)
            control.visible = running;
        this._tallySeparator.visible = running;
        this._tallyItem.visible = running;
        this._phoneItem.visible = running && (status.phones.length > 0 || status.phoneReminders);
        this._phonesItem.visible = running && status.phones.length > 0;
        if (this._phonesItem.visible)
            this._phonesItem.label.text = t.gettext('Phones: %s').format(status.phones.join(', '));
        this._cannotSeeItem.visible = running && status.cannotSee;
        if (running) {
            this._enableControls(status);
            this._phoneItem.setToggleState(status.phoneReminders);
        }
        this._arm(this._face.nextChange);
    }

    _enableControls(status) {
        const state = status.state;
        const counting = state === 'waiting' || state === 'snoozed' || state === 'due';
        const userPaused = state === 'paused' && status.pauseReason === 'user';
        this._startItem.setSensitive(counting);
        this._snoozeItem.setSensitive(state === 'due');
        this._skipItem.setSensitive(state === 'due' || state === 'break');
        for (const pause of this._pauseItems)
            pause.setSensitive(!userPaused);
        this._resumeItem.setSensitive(userPaused);
    }

    /** One timeout, to the ring's next step (µs of wall time), re-armed from there. */
    _arm(at) {
        if (at === null)
            return;
        const ms = Math.max(0, Math.ceil((at - GLib.get_real_time()) / 1000)) + 5;
        this._timeoutId = GLib.timeout_add(GLib.PRIORITY_DEFAULT, ms, () => {
            this._timeoutId = 0;
            this._update();
            return GLib.SOURCE_REMOVE;
        });
    }

    // Clicks.

    _call(what, method, args) {
        if (!this._proxy)
            return;
        this._proxy.call(method, args, Gio.DBusCallFlags.NO_AUTO_START, -1, this._cancellable, (proxy, result) => {
            try {
                proxy.call_finish(result);
            } catch (e) {
                if (!cancelled(e))
                    Main.notifyError(what, sentence(e));
            }
        });
    }

    _startIcared() {
        const args = new GLib.Variant('(su)', [BUS_NAME, 0]);
        Gio.DBus.session.call('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus',
            'StartServiceByName', args, null, Gio.DBusCallFlags.NONE, -1, this._cancellable, (bus, result) => {
                try {
                    bus.call_finish(result);
                } catch (e) {
                    if (!cancelled(e))
                        Main.notifyError(this._ext.gettext('iCare could not be started'), sentence(e));
                }
            });
    }

    /** Shows iCare's window (the Shell launches the app when it is not running), then runs `action` in it. */
    _openApp(action) {
        const app = Shell.AppSystem.get_default().lookup_app(`${BUS_NAME}.desktop`);
        if (!app) {
            Main.notifyError(this._ext.gettext('Open iCare'), this._ext.gettext('The iCare app is not installed.'));
            return;
        }
        app.activate();
        if (action === null || this._appWatchId)
            return;
        // The action once the app is on the bus: at once when it already runs.
        this._appWatchId = Gio.bus_watch_name_on_connection(Gio.DBus.session, APP_BUS_NAME,
            Gio.BusNameWatcherFlags.NONE, () => {
                this._stopWatchingApp();
                this._activateAction(action);
            }, null);
        this._appTimeoutId = GLib.timeout_add_seconds(GLib.PRIORITY_DEFAULT, 15, () => {
            this._appTimeoutId = 0;
            this._stopWatchingApp();
            return GLib.SOURCE_REMOVE;
        });
    }

    _stopWatchingApp() {
        if (this._appWatchId)
            Gio.bus_unwatch_name(this._appWatchId);
        this._appWatchId = 0;
        if (this._appTimeoutId)
            GLib.Source.remove(this._appTimeoutId);
        this._appTimeoutId = 0;
    }

    _activateAction(action) {
        const args = new GLib.Variant('(sava{sv})', [action, [], {}]);
        Gio.DBus.session.call(APP_BUS_NAME, OBJECT_PATH, 'org.freedesktop.Application', 'ActivateAction',
            args, null, Gio.DBusCallFlags.NO_AUTO_START, -1, this._cancellable, (bus, result) => {
                try {
                    bus.call_finish(result);
                } catch (e) {
                    if (!cancelled(e))
                        Main.notifyError(this._ext.gettext('Preferences'), sentence(e));
                }
            });
    }

    destroy() {
        this._cancellable.cancel();
        this._stopWatchingApp();
        if (this._timeoutId)
            GLib.Source.remove(this._timeoutId);
        this._timeoutId = 0;
        if (this._proxy)
            this._proxy.disconnectObject(this);
        this._proxy = null;
        this._interfaceSettings = null;
        // The top bar follows the menu with connectObject(…, Main.panel), which
        // tracks the panel's 'destroy' but never the menu's (a plain JS object):
        // without this, every disable left a handler on Main.panel (measured on
        // GNOME Shell 48.7 and 50.5, ShellExtensionRootTests).
        this.menu.disconnectObject(Main.panel);
        super.destroy();
    }
});
