import DBusKit
import DesktopWatch
import FileKit
import Phones
import SystemdKit

/// iCare's commands in each paired phone's Run command list, through
/// GSConnect: the list is the dconf key
/// `/org/gnome/shell/extensions/gsconnect/device/<id>/plugin/runcommand/command-list`
/// (`a{sv}`, each value an `a{ss}` of `name` and `command`), which GSConnect
/// sends to the phone whenever it changes. iCare reads it from the dconf
/// database, keeps every other entry's bytes as they are, and writes the
/// whole key back through dconf's own writer (`ca.desrt.dconf.Writer.Change`),
/// as any GSettings client does. The paired phones come from GSConnect's
/// object manager, read again on its signals; the key is checked again each
/// time dconf says it changed. See docs/phones.md.
final class GSConnectRemote {
    static let managerPath = GSConnectPhones.managerPath
    static let deviceInterface = GSConnectPhones.deviceInterface
    static let settingsPrefix = GSConnectPhones.settingsPrefix
    static let provider = "GSConnect"
    private static let entryKind = GVariantWriter.Kind.dictionaryEntry(.string, .variant)

    private let connection: Connection
    private let problems: ProblemLog
    private let dconf: DconfDatabase
    /// GSConnect's paired phones (nil while it is not running or not read yet).
    private let pairedPhones: PairedPhones
    private var paired: [String]? { pairedPhones.ids }
    /// Every phone seen paired while iCare ran.
    private var known: Set<String> = []
    /// The dconf database as last read (nil: not yet, or none).
    private var settings: GVDBFile?
    /// The changesets sent and not yet answered, by key: a key is not written again until dconf answered.
    private var writing: Set<String> = []
    /// The changeset last sent for each key: never sent twice in a row, so a database that reads back
    /// differently can never make iCare write in a loop.
    private var lastSent: [String: [UInt8]] = [:]
    var onChange: (() -> Void)?
    private(set) var offering: [String] = [] { didSet { if offering != oldValue { onChange?() } } }
    /// Paired phones whose Run command is off in GSConnect (their list waits), each logged once.
    private(set) var runCommandOff: Set<String> = []
    private var toldOff: Set<String> = []
    private let log: Log

    var wanted: [(key: String, name: String, command: String)] = [] {
        didSet { if wanted.map(\.key) != oldValue.map(\.key) || wanted.map(\.name) != oldValue.map(\.name)
                    || wanted.map(\.command) != oldValue.map(\.command) { apply() } }
    }

    init(connection: Connection, log: Log, problems: ProblemLog, dconf: DconfDatabase, program: PhoneProgram) {
        self.log = log
        self.connection = connection
        self.problems = problems
        self.dconf = dconf
        pairedPhones = PairedPhones(program: program)
    }

    func start() {
        dconf.add(prefix: Self.settingsPrefix) { [unowned self] reading in
            if case .database(let file) = reading { self.settings = file } else { self.settings = nil }
            self.apply()
        }
        pairedPhones.onRead = { [unowned self] in self.apply() }
        pairedPhones.onGone = { [unowned self] in self.offering = [] }
        pairedPhones.start(signals: { GSConnectPhones.followDevices(on: self.connection, $0) }) { [unowned self] done in
            self.readPaired(done)
        }
    }

    /// Reads the paired phones from GSConnect's object manager.
    private func readPaired(_ done: @escaping ([String]?) -> Void) {
        pairedPhones.server.call(Self.managerPath, InterfaceName("org.freedesktop.DBus.ObjectManager"), "GetManagedObjects") {
            [unowned self] result in
            guard case .success(let reply) = result, let objects = reply.single("a{oa{sa{sv}}}") else {
                self.problems.report(Self.provider, .reply, "GetManagedObjects did not answer as expected", consequence: "no commands on its phones")
                return done(nil)
            }
            done(Self.pairedIds(in: objects))
        }
    }

    /// The ids of the paired devices (connected or not), at most 16, each a valid dconf path element.
    static func pairedIds(in objects: DBusValue) -> [String] {
        guard case .dictionary(_, _, let entries) = objects else { return [] }
        var ids: [String] = []
        for (_, value) in entries {
            guard let properties = value.stringDictionary?[deviceInterface]?.stringDictionary,
                  properties["Paired"]?.bool == true, let id = properties["Id"]?.string, KDEConnectRemote.isDeviceId(id) else { continue }
            ids.append(id)
        }
        return Array(ids.sorted().prefix(16))
    }

    static func listKey(_ id: String) -> String { settingsPrefix + "device/" + id + "/plugin/runcommand/command-list" }

    /// Whether GSConnect runs a phone's Run command (its service's `_onAllowedPluginsChanged`): loaded when
    /// the device's `supported-plugins` (what the phone declared when it last connected) holds
    /// `runcommand` and `disabled-plugins` (the person's switch) does not. Before a first connection
    /// nothing is declared, and nothing is said.
    static func runCommandOff(_ id: String, in settings: GVDBFile?) -> Bool {
        let device = settingsPrefix + "device/" + id + "/"
        let disabled = settings?.value(at: device + "disabled-plugins")?.strings ?? []
        let supported = settings?.value(at: device + "supported-plugins")?.strings ?? []
        return disabled.contains("runcommand") || (!supported.isEmpty && !supported.contains("runcommand"))
    }

    private func followRunCommand(_ paired: [String]) {
        runCommandOff = Set(paired.filter { Self.runCommandOff($0, in: settings) })
        for id in runCommandOff.sorted() where toldOff.insert(id).inserted {
            log.info("Phones: GSConnect's phone \(id) has Run command off; iCare's commands wait in its list until it is on.")
        }
    }

    /// Brings each paired phone's list in line with `wanted`, and takes iCare's entries out of the lists of
    /// phones no longer paired: those seen paired while iCare ran, and those GSConnect still remembers
    /// (its `devices` key; it keeps an unpaired phone's settings).
    private func apply() {
        guard let paired else { return }
        known.formUnion(paired)
        let remembered = (settings?.value(at: Self.settingsPrefix + "devices")?.strings ?? []).filter(KDEConnectRemote.isDeviceId)
        let unpaired = known.union(remembered.prefix(16)).subtracting(paired).sorted()
        var nowOffering: [String] = []
        followRunCommand(paired)
        for id in paired + unpaired {
            let key = Self.listKey(id)
            guard !writing.contains(key) else { continue }
            let entries = paired.contains(id) ? wanted : []
            switch merged(key, entries) {
            case .some(.some(let value)):
                write(key, value)
            case .some(.none):
                if !entries.isEmpty { nowOffering.append(id) }
            case .none:
                break
            }
        }
        offering = nowOffering
    }

    /// The key's new value (`.some(nil)`: as it should be already; nil: it cannot be read, left alone).
    private func merged(_ key: String, _ wanted: [(key: String, name: String, command: String)]) -> GVariantWriter.Value?? {
        var others: [(key: String, bytes: [UInt8])] = []
        var current: [(key: String, bytes: [UInt8])] = []
        if let stored = settings?.value(at: key) {
            guard stored.type == "a{sv}", let entries = GVariantArrayReader.stringKeyedEntries(stored.data, alignment: 8) else {
                problems.report("\(Self.provider) (\(key))", .value, "the Run command list is not the a{sv} GSConnect writes",
                                consequence: "that list is left as it is")
                return .none
            }
            others = entries.filter { !PhoneCommands.keys.contains($0.key) }
            current = entries.filter { PhoneCommands.keys.contains($0.key) }
        }
        let ours = wanted.map { entry -> GVariantWriter.Value in
            .dictionaryEntry(.string(entry.key), .variant(.dictionary([("name", .string(entry.name)), ("command", .string(entry.command))], of: .string)))
        }
        guard let oursBytes = try? ours.map({ try GVariantWriter.serialise($0) }) else { return .none }
        if current.count == oursBytes.count, Set(current.map(\.bytes)) == Set(oursBytes) { return .some(nil) }
        if current.isEmpty, ours.isEmpty { return .some(nil) }
        let elements = others.map { GVariantWriter.Value.serialised(Self.entryKind, $0.bytes) } + ours
        return .some(.array(Self.entryKind, elements))
    }

    private func write(_ key: String, _ value: GVariantWriter.Value) {
        let changeset: [UInt8]
        do {
            changeset = try GVariantWriter.dconfChangeset([(key, value)])
        } catch {
            problems.report(Self.provider, .value, "a Run command list could not be written: \(error)", consequence: "no iCare commands in it")
            return
        }
        guard lastSent[key] != changeset else {
            problems.report(Self.provider, .value, "dconf keeps a Run command list other than the one iCare wrote",
                            consequence: "iCare does not write it again until it changes")
            return
        }
        lastSent[key] = changeset
        writing.insert(key)
        let message = Message.methodCall(destination: BusName("ca.desrt.dconf"), path: ObjectPath("/ca/desrt/dconf/Writer/user"),
                                         interface: InterfaceName("ca.desrt.dconf.Writer"), member: MemberName("Change"),
                                         arguments: [.bytes(changeset)])
        connection.call(message, timeoutMs: 10_000) { [weak self] result in
            guard let self else { return }
            self.writing.remove(key)
            if case .failure(let e) = result {
                self.problems.report(Self.provider, .reply, "dconf refused a Run command list: \(e.message)", consequence: "no iCare commands in it")
            }
            // dconf's Notify brings the new database; until then the old one still reads as before.
        }
    }
}
