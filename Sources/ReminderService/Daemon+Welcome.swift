import DBusKit
import DesktopWatch
import ICareFiles
import Localization

/// The first start: icared greets a person once ("iCare is on", when the
/// first break comes, "Open iCare"), for one who never opens the app. The
/// debt is kept in the state folder (`WelcomeMark`) until a notification
/// server has shown the notice; the notifier shows it when the schedule and
/// the desktop allow (Notifier+Brief).
extension Daemon {
    /// The app's name beneath iCare's id and the object GLib serves for it (see the app's WindowName).
    static let appName = BusName("org.icare.Reminder.Window")
    static let appPath = ObjectPath("/org/icare/Reminder")

    /// Whether the notice is owed (`WelcomeMark`: on the first start, no state file and no history yet).
    func welcomeOwed() -> Bool {
        do {
            return try WelcomeMark(paths: paths).owed()
        } catch {
            log.warning("Cannot keep track of the first start's notice (\(error)); iCare does not greet this time.")
            return false
        }
    }

    /// Hands the notifier the debt and what settles it.
    func startWelcome(_ notifier: Notifier, owed: Bool) {
        notifier.clockText = { [unowned self] t in self.clockTime(t) }
        notifier.welcomeOwed = owed
        let mark = WelcomeMark(paths: paths)
        notifier.onWelcomed = { [unowned self] in
            self.log.info("The first start's notice (or a reminder before it) was shown; iCare does not show the notice again.")
            do {
                try mark.settle()
            } catch {
                self.log.warning("Cannot remove \(mark.path) (\(error)); the notice may come once more.")
            }
        }
    }

    /// Starting at login in the Flatpak: the app's welcome asks the Background portal (icared has no window
    /// to ask from, and a dialog at each start would be noise) and tells icared the answer over the bus
    /// (`SetStartsAtLogin`). icared keeps it in its own state folder (`LoginAnswer`: the file 0.7's app wrote
    /// there itself, in the same words, so an upgrade keeps the answer) and reads it once at start.
    func readLoginAnswer() {
        loginAnswered(LoginAnswer(paths: paths).read())
    }

    /// `SetStartsAtLogin`: kept before the reply, so the answer survives a restart; refused outside the
    /// Flatpak, where systemd's unit or the autostart entry starts icared and no answer is asked.
    func setStartsAtLogin(_ allowed: Bool) throws(DBusError) {
        guard Sandbox.isFlatpak else {
            throw DBusError(name: "org.freedesktop.DBus.Error.NotSupported",
                            message: tr("Only iCare's Flatpak needs the desktop's answer on starting at login."))
        }
        let answer = LoginAnswer(paths: paths)
        do {
            try answer.write(allowed)
        } catch {
            throw DBusError.failed("Could not save the answer on starting at login to \(answer.path): \(error).")
        }
        log.info("The app says the desktop \(allowed ? "allows" : "does not allow") iCare to start at login.")
        loginAnswered(allowed)
    }

    /// "Open iCare": the app's `org.freedesktop.Application.Activate`, by the bus. A running app shows its
    /// window; otherwise the bus starts the app from its activation file, so it is never icared's child
    /// and never inside icared's sandbox (docs/architecture.md, "The first start").
    /// With `action`, `ActivateAction` opens the app on that action instead (the ring's "iCare cannot see
    /// everything here" opens the preferences' page "This desktop").
    func openApp(activationToken: String?, action: String? = nil) {
        let platform: [(String, DBusValue)] = activationToken.map { [("activation-token", .string($0))] } ?? []
        let member = action == nil ? "Activate" : "ActivateAction"
        let arguments: [DBusValue] = action.map { [.string($0), .array(element: "v", []), .vardict(platform)] } ?? [.vardict(platform)]
        bus?.call(.methodCall(destination: Daemon.appName, path: Daemon.appPath,
                              interface: InterfaceName("org.freedesktop.Application"), member: MemberName(member),
                              arguments: arguments)) { [weak self] result in
            guard let self else { return }
            if case .failure(let e) = result {
                self.log.warning("Could not open iCare's window (\(e.name): \(e.message)).")
            } else {
                self.log.info("Opened iCare's window.")
            }
        }
    }
}
