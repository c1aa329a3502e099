import Glibc
import DBusKit
import DesktopWatch
import Phones
import ReminderCore
import SystemdKit

/// The phone as a remote: while `PhoneReminders` is on, each phone KDE
/// Connect links offers iCare's Start break, Snooze, Skip and Pause for an
/// hour / Resume in its Run command list (its own list, its widget, Android's
/// Device Controls), through KDE Connect and GSConnect; a tap runs the installed `icarectl` on this desktop,
/// which acts as the bubble's buttons do. Fed the engine's status after every
/// change, like the notifier: the pause entry follows the state. Nothing
/// wakes while idle: it acts on the status, KDE Connect's signals and
/// `configChanged`. See docs/phones.md.
public final class PhoneRemote {
    private let log: Log
    private let icarectl: String?
    private let names: PhoneCommandNames
    private let kdeConnect: KDEConnectRemote?
    private let gsConnect: GSConnectRemote?
    /// Runs when the phones offering iCare's commands may have changed.
    public var onChange: (() -> Void)?

    /// `configHome`: `$XDG_CONFIG_HOME` (KDE Connect's settings are under it); `dconf`: the shared dconf
    /// database (GSConnect's settings are in it; nil: no GSConnect commands); `icarectl`: the program the
    /// commands run (nil: none found, so no commands); `names`: the entries' names in the person's language;
    /// `programs`: KDE Connect and GSConnect as followed on the bus, shared with the phone reminders.
    public init(connection: Connection, loop: EventLoop, log: Log, configHome: String, dconf: DconfDatabase?,
                icarectl: String?, names: PhoneCommandNames, programs: PhonePrograms) {
        self.log = log
        self.icarectl = icarectl
        self.names = names
        let problems = ProblemLog(log: log, feature: "Phones", usualConsequence: "no iCare commands on its phones")
        if Sandbox.isFlatpak {
            // KDE Connect's settings are outside the sandbox: the Flatpak cannot write its lists (the service
            // says so once, as SandboxLimits phone-commands).
            kdeConnect = nil
            gsConnect = nil
        } else {
            kdeConnect = KDEConnectRemote(connection: connection, loop: loop, log: log, problems: problems, configHome: configHome,
                                          program: programs.kdeConnect)
            gsConnect = dconf.map { GSConnectRemote(connection: connection, log: log, problems: problems, dconf: $0,
                                                    program: programs.gsConnect) }
        }
        if icarectl == nil {
            log.info("Phones: icarectl is not beside icared, so the phones get no commands from iCare.")
        }
    }

    /// Whether KDE Connect's lists cannot be written because their folder is read-only: under icared's
    /// unit, KDE Connect was set up after icared started (docs/as-installed.md). `onChange` follows it.
    public var kdeConnectFolderReadOnly: Bool { kdeConnect?.folderReadOnly ?? false }

    /// Whether `phone` offers iCare's commands now: its list holds them and, as far as KDE Connect or
    /// GSConnect says, Run command is on for it (the ping then says the break can start from there).
    public func offersCommands(to phone: Phone) -> Bool {
        switch phone.app {
        case .kdeConnect: kdeConnect.map { $0.offering.contains(phone.id) && !$0.runCommandOff.contains(phone.id) } ?? false
        case .gsConnect: gsConnect.map { $0.offering.contains(phone.id) && !$0.runCommandOff.contains(phone.id) } ?? false
        }
    }

    public func start() {
        let changed = { [unowned self] in
            let count = (self.kdeConnect?.offering.count ?? 0) + (self.gsConnect?.offering.count ?? 0)
            self.log.info(count == 0 ? "Phones: no phone offers iCare's commands." : "Phones: \(count) phone(s) offer iCare's commands.")
            self.onChange?()
        }
        kdeConnect?.onChange = changed
        gsConnect?.onChange = changed
        kdeConnect?.start()
        gsConnect?.start()
    }

    /// What the phones' lists should hold for this status and these settings.
    public func update(status: ReminderStatus, settings: Settings) {
        guard settings.phoneReminders, let icarectl else {
            kdeConnect?.wanted = []
            gsConnect?.wanted = []
            return
        }
        let userPaused = status.state == .paused && (status.pauseReason == .user || status.pausedUntil != 0)
        kdeConnect?.wanted = PhoneCommands.members(icarectl: icarectl, names: names, userPaused: userPaused)
        gsConnect?.wanted = PhoneCommands.entries(icarectl: icarectl, names: names, userPaused: userPaused)
    }

    /// `icarectl` beside the running service (both are installed in one folder, and built into one),
    /// if it is there and can run.
    public static func icarectlBesideService() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        let exe = String(decoding: buffer.prefix(n).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let slash = exe.lastIndex(of: "/") else { return nil }
        let candidate = String(exe[..<slash]) + "/icarectl"
        return access(candidate, X_OK) == 0 ? candidate : nil
    }
}
