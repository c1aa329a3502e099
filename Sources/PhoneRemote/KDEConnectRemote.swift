import Glibc
import DBusKit
import DesktopWatch
import FileKit
import Phones
import SystemdKit

/// iCare's commands in each paired phone's Run command list, through KDE
/// Connect: the list is a file per phone (`RunCommandFile`), written under
/// QSettings' own lock (`QtLockFile`), then the signal `configChanged`
/// (`org.kde.kdeconnect.config` on `/kdeconnect/<id>/kdeconnect_runcommand`)
/// makes kdeconnectd send the new list to the phone at once. The paired
/// phones come from `deviceNames(false, true)` on `/modules/kdeconnect`,
/// read again on each of the daemon's and the devices' signals; a
/// `configChanged` from anyone (KDE Connect's settings page writes the same
/// file) makes iCare check its entries again. Lists of phones no longer
/// paired lose iCare's entries. See docs/phones.md for every shape and where
/// it was verified.
final class KDEConnectRemote {
    static let configInterface = "org.kde.kdeconnect.config"
    static let plugin = "kdeconnect_runcommand"

    private let connection: Connection
    private let loop: EventLoop
    private let log: Log
    private let problems: ProblemLog
    /// `$XDG_CONFIG_HOME/kdeconnect`.
    private let folder: String
    /// kdeconnectd's paired phones (nil while it is not running or not read yet).
    private let pairedPhones: PairedPhones
    private var paired: [String]? { pairedPhones.ids }
    private var server: BusNameFollower { pairedPhones.server }
    private var configSubscription: SignalSubscription?
    /// Phones seen reachable without Run command, each logged once.
    private var toldOff: Set<String> = []
    /// Phones reachable now without Run command (their list waits): they cannot run iCare's commands.
    private(set) var runCommandOff: Set<String> = []
    private var retry: EventSource?
    private var retries = 0
    /// Runs when `offering` changes.
    var onChange: (() -> Void)?
    /// Whether the last list iCare tried to write was on a read-only file system (under the unit: KDE
    /// Connect's folder was made after icared started, so the unit's grant skipped it).
    private(set) var folderReadOnly = false { didSet { if folderReadOnly != oldValue { onChange?() } } }
    /// The paired phones whose list holds iCare's commands now.
    private(set) var offering: [String] = [] { didSet { if offering != oldValue { onChange?() } } }

    /// What each paired phone's list should hold of iCare's (none: iCare's entries removed).
    var wanted: [JSONObjectText.Member] = [] {
        didSet { if wanted != oldValue { apply() } }
    }

    init(connection: Connection, loop: EventLoop, log: Log, problems: ProblemLog, configHome: String, program: PhoneProgram) {
        self.connection = connection
        self.loop = loop
        self.log = log
        self.problems = problems
        folder = configHome + "/kdeconnect"
        pairedPhones = PairedPhones(program: program)
    }

    func start() {
        configSubscription = connection.subscribe(MatchRule(interface: Self.configInterface, member: "configChanged")) {
            [unowned self] message in
            if message.path?.hasSuffix("/" + Self.plugin) == true { self.apply() }
        }
        pairedPhones.onRead = { [unowned self] in self.apply() }
        pairedPhones.onGone = { [unowned self] in self.offering = [] }
        pairedPhones.start(signals: { KDEConnectPhones.followDevices(on: self.connection, $0) }) { [unowned self] done in
            self.readPaired(done)
        }
    }

    /// Reads the paired phones, then the reachable ones' plugins.
    private func readPaired(_ done: @escaping ([String]?) -> Void) {
        readDevices(reachableOnly: false) { [unowned self] paired in
            guard let paired else { return done(nil) }
            self.readDevices(reachableOnly: true) { [unowned self] reachable in
                self.checkPlugins(Array((reachable ?? []).filter(paired.contains))) { done(paired) }
            }
        }
    }

    private func readDevices(reachableOnly: Bool, _ done: @escaping ([String]?) -> Void) {
        server.call(KDEConnectBus.daemonPath, KDEConnectBus.daemonInterface, "deviceNames", [.bool(reachableOnly), .bool(true)]) { [unowned self] result in
            guard case .success(let reply) = result, let names = reply.single("a{ss}")?.stringDictionary else {
                self.problems.report(KDEConnectBus.provider, .reply, "deviceNames did not answer as 'a{ss}'", consequence: "no commands on its phones")
                return done(nil)
            }
            done(Array(names.keys.filter(Self.isDeviceId).sorted().prefix(16)))
        }
    }

    /// Logs once each reachable phone that does not take commands (Run command off on it or here).
    private func checkPlugins(_ ids: [String], _ done: @escaping () -> Void) {
        guard let id = ids.first, let path = KDEConnectBus.devicePath(id) else { return done() }
        server.call(path, KDEConnectBus.deviceInterface, "loadedPlugins") { [unowned self] result in
            if case .success(let reply) = result, let plugins = reply.single("as")?.strings {
                if plugins.contains(Self.plugin) {
                    self.runCommandOff.remove(id)
                } else {
                    self.runCommandOff.insert(id)
                    if self.toldOff.insert(id).inserted {
                        self.log.info("Phones: KDE Connect's phone \(id) has Run command off; iCare's commands wait in its list until it is on.")
                    }
                }
            }
            self.checkPlugins(Array(ids.dropFirst()), done)
        }
    }

    /// Brings every list in line with `wanted`: the paired phones' hold iCare's entries, all others none.
    private func apply() {
        guard let paired else { return }
        var held = false
        var nowOffering: [String] = []
        // Lists of phones no longer paired (KDE Connect keeps their folders): only where one is there.
        let others = ((try? Directory.names(in: folder)) ?? []).filter {
            Self.isDeviceId($0) && !paired.contains($0) && access(listFile($0), F_OK) == 0
        }
        for id in paired + others.sorted() {
            let members = paired.contains(id) ? wanted : []
            switch write(id, members) {
            case .changed:
                if paired.contains(id) { announce(id) }
                if !members.isEmpty { nowOffering.append(id) }
            case .unchanged:
                if !members.isEmpty { nowOffering.append(id) }
            case .held:
                held = true
            case .failed:
                break
            }
        }
        offering = nowOffering
        if held { retryShortly() } else { retries = 0 }
    }

    private enum Outcome { case changed, unchanged, held, failed }

    private func listFile(_ id: String) -> String { folder + "/" + id + "/" + Self.plugin + "/config" }

    private func write(_ id: String, _ members: [JSONObjectText.Member]) -> Outcome {
        let directory = folder + "/" + id + "/" + Self.plugin
        let file = listFile(id)
        let where_ = "\(KDEConnectBus.provider) (phone \(id))"
        do {
            let before = try AtomicFile.readIfPresent(file, limit: 1 << 20)
            if before == nil, members.isEmpty { return .unchanged }
            guard try RunCommandFile.merged(before, ours: members, ourKeys: PhoneCommands.keys) != nil else { return .unchanged }
            try Directory.ensure(directory)
            let lock = try QtLockFile.lock(file)
            defer { withExtendedLifetime(lock) {} }
            // Read again under the lock: the file may have changed since.
            let current = try AtomicFile.readIfPresent(file, limit: 1 << 20)
            guard let text = try RunCommandFile.merged(current, ours: members, ourKeys: PhoneCommands.keys) else { return .unchanged }
            try AtomicFile.write(text, to: file)
            folderReadOnly = false
            return .changed
        } catch let problem as RunCommandFile.Problem {
            problems.report(where_, .file, "\(file): \(problem)", consequence: "that list is left as it is")
        } catch QtLockFile.Refusal.held {
            return .held
        } catch QtLockFile.Refusal.failed(let error) {
            folderReadOnly = error.isReadOnlyFileSystem
            problems.report(where_, .file, "its Run command list cannot be locked: \(error)", consequence: "no iCare commands in it")
        } catch {
            folderReadOnly = (error as? FileError)?.isReadOnlyFileSystem ?? false
            problems.report(where_, .file, "its Run command list: \(error)", consequence: "no iCare commands in it")
        }
        return .failed
    }

    /// Tells kdeconnectd the list changed: it sends it to the phone at once.
    private func announce(_ id: String) {
        guard let path = ObjectPath(rawValue: "/kdeconnect/" + id + "/" + Self.plugin) else { return }
        connection.send(Message.signal(path: path, interface: InterfaceName(Self.configInterface), member: MemberName("configChanged")))
    }

    /// QSettings holds its lock for a moment: try again in a quarter second, for at most 40 s (a lock
    /// older than 30 s is stale and removed).
    private func retryShortly() {
        retries += 1
        guard retries <= 160 else {
            problems.report(KDEConnectBus.provider, .file, "a Run command list stayed locked by another program for 40 s",
                            consequence: "iCare tries again at the next change")
            retries = 0
            return
        }
        if retry == nil {
            retry = try? loop.addTimer(clock: .monotonic, at: 0, accuracy: 50_000) { [unowned self] in self.apply() }
        }
        retry?.setTime(Clock.monotonic.now() + 250_000)
        retry?.setEnabled(.oneshot)
    }

    /// A device id that is one path element and one object path element: KDE Connect's are
    /// `[A-Za-z0-9_]` (a name owner could claim anything: docs/hostile.md).
    static func isDeviceId(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.count <= 64 && id.utf8.allSatisfy {
            (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) || $0 == 0x5F
        }
    }
}
