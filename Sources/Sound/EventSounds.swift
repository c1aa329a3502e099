import DesktopWatch
import FileKit
import ReminderCore
import SystemdKit

/// Who plays iCare's sounds now (the `SoundPlayedBy` property).
public enum SoundWay: String, Sendable {
    /// The notification server plays the `sound-name` hint (it lists the `sound` capability).
    case notificationServer = "notification-server"
    /// icared plays them itself, through libcanberra.
    case icared
    /// None: `Sound` is off, or the desktop's event sounds are off.
    case none

    /// Who plays the sounds with this `Sound` setting, the desktop's event-sounds switch and server.
    public init(sound: Bool, desktopAllows: Bool, serverPlays: Bool) {
        guard sound, desktopAllows else {
            self = .none
            return
        }
        self = serverPlays ? .notificationServer : .icared
    }
}

/// What the moment of an effect is like, as the daemon knows it.
public struct SoundMoment: Sendable {
    /// The `Sound` setting.
    public var sound: Bool
    /// The notification server plays `sound-name` itself.
    public var serverPlays: Bool
    /// Do-not-disturb is on.
    public var doNotDisturb: Bool
    /// A call, a screen share or a video is going on (`Busy`).
    public var busy: Bool

    public init(sound: Bool, serverPlays: Bool, doNotDisturb: Bool, busy: Bool) {
        self.sound = sound
        self.serverPlays = serverPlays
        self.doNotDisturb = doNotDisturb
        self.busy = busy
    }
}

/// The sounds of a reminder (`bell`) and of a break's end (`complete`),
/// played by icared where the notification server does not play them.
/// Fed the engine's effects, one at a time, so each reminder and each end
/// sounds at most once, however often its notification is sent again;
/// countdown updates are no effects and never sound.
///
/// Follows GNOME's `org.gnome.desktop.sound` keys in the shared dconf
/// database: `event-sounds` (off: no sounds) and `theme-name` (the person's
/// sound theme; canberra falls back to freedesktop's for what it lacks).
public final class EventSounds {
    public static let prefix = "/org/gnome/desktop/sound/"
    public static let reminderSound = "bell"
    public static let completeSound = "complete"
    /// The freedesktop sound theme (sound-theme-freedesktop), where no desktop names another.
    public static let defaultTheme = "freedesktop"

    /// The desktop's event sounds are on (`event-sounds`; unset: on).
    public private(set) var desktopAllows = true
    /// The person's sound theme (`theme-name`; unset: freedesktop).
    public private(set) var theme = EventSounds.defaultTheme
    /// Runs when `desktopAllows` changes (the daemon announces `SoundPlayedBy`).
    public var onChange: (() -> Void)?
    public let player: SoundPlayer
    private let log: Log

    public init(loop: EventLoop, log: Log) {
        self.log = log
        player = SoundPlayer(loop: loop, log: log)
    }

    /// Follows the desktop's switch and theme through the session's dconf database.
    public func follow(_ dconf: DconfDatabase) {
        dconf.follow(prefix: Self.prefix, name: "event-sounds") { [weak self] value in
            guard let self else { return }
            let allows = value?.boolean ?? true
            guard allows != self.desktopAllows else { return }
            self.desktopAllows = allows
            self.log.info("Sound: the desktop's event sounds are \(allows ? "on" : "off").")
            self.onChange?()
        }
        dconf.follow(prefix: Self.prefix, name: "theme-name") { [weak self] value in
            let name = value?.string ?? ""
            self?.theme = name.isEmpty ? Self.defaultTheme : name
        }
    }

    /// The sound an effect calls for, if any, whoever plays it.
    public static func sound(for effect: ReminderEffect) -> String? {
        switch effect {
        case .breakDue: return reminderSound
        case .breakCompleted: return completeSound
        case .record, .breakStarted, .breakSkipped, .breakMissed, .breakSnoozed: return nil
        }
    }

    /// Plays the effect's sound when icared is the one to play it and the moment allows one.
    public func perform(_ effect: ReminderEffect, _ moment: SoundMoment) {
        guard let name = Self.sound(for: effect) else { return }
        guard SoundWay(sound: moment.sound, desktopAllows: desktopAllows, serverPlays: moment.serverPlays) == .icared else { return }
        if moment.doNotDisturb || moment.busy {
            log.debug("Sound: \(name) not played (\(moment.doNotDisturb ? "do-not-disturb" : "busy")).")
            return
        }
        player.play(name, theme: theme)
    }
}
