import DBusKit
import DesktopWatch
import FileKit

/// GSConnect, GNOME's KDE Connect (its service owns
/// `org.gnome.Shell.Extensions.GSConnect`): its paired, connected devices
/// from its object manager, read again on `InterfacesAdded`/`Removed` and
/// each device's `PropertiesChanged`; what it does with each device from the
/// device's GSettings in the dconf database; and its `ping` action.
///
/// The shapes, checked against GSConnect 54 (docs/phones.md): devices are
/// objects under `/org/gnome/Shell/Extensions/GSConnect/Device/` with the
/// interface `org.gnome.Shell.Extensions.GSConnect.Device` (`Id`, `Name`,
/// `Connected`, `Paired`) and `org.gtk.Actions` (`ping` takes a string). A
/// device's settings live under `/org/gnome/shell/extensions/gsconnect/device/ID/`:
/// `supported-plugins` and `disabled-plugins`, and the notification plugin's
/// `send-notifications` (default true: GSConnect forwards unless told not to).
public final class GSConnectPhones: PhoneSource {
    public static let busName = BusName("org.gnome.Shell.Extensions.GSConnect")
    public static let managerPath = ObjectPath("/org/gnome/Shell/Extensions/GSConnect")
    public static let deviceInterface = "org.gnome.Shell.Extensions.GSConnect.Device"
    public static let settingsPrefix = "/org/gnome/shell/extensions/gsconnect/"
    static let provider = "GSConnect"

    /// A device as the service lists it.
    struct Device: Equatable {
        let id: String
        let name: String
        let path: ObjectPath
    }

    private let program: PhoneProgram
    private var server: BusNameFollower { program.server }
    private let connection: Connection
    private let problems: ProblemLog
    private let dconf: DconfDatabase?
    private(set) var phones: [Phone] = []
    var onChange: (() -> Void)?
    private var gate = RefreshGate()
    private var subscriptions: [SignalSubscription] = []
    private var devices: [Device] = []
    /// The last read of the dconf database (nil: none yet, every key at its default).
    private var settings: GVDBFile?

    init(connection: Connection, problems: ProblemLog, dconf: DconfDatabase?, program: PhoneProgram) {
        self.connection = connection
        self.problems = problems
        self.dconf = dconf
        self.program = program
    }

    func start() {
        subscriptions = Self.followDevices(on: connection) { [unowned self] in self.refresh() }
        dconf?.add(prefix: Self.settingsPrefix) { [unowned self] reading in
            if case .database(let file) = reading { self.settings = file } else { self.settings = nil }
            self.publish()
        }
        program.follow { [unowned self] owner in
            self.gate.reset()
            self.devices = []
            if owner == nil { self.publish() } else { self.refresh() }
        }
    }

    /// Runs `changed` on each of GSConnect's signals about its devices: the object manager's
    /// `InterfacesAdded`/`Removed` and a device's `PropertiesChanged` (the phone remote follows them too).
    public static func followDevices(on connection: Connection, _ changed: @escaping () -> Void) -> [SignalSubscription] {
        let sender = busName.rawValue
        return [
            connection.subscribe(MatchRule(sender: sender, path: managerPath.rawValue, interface: "org.freedesktop.DBus.ObjectManager")) { _ in changed() },
            connection.subscribe(MatchRule(sender: sender, interface: InterfaceName.properties.rawValue,
                                           member: "PropertiesChanged", arg0: deviceInterface)) { _ in changed() },
        ]
    }

    private func refresh() {
        guard server.owner != nil, gate.begin() else { return }
        server.call(Self.managerPath, InterfaceName("org.freedesktop.DBus.ObjectManager"), "GetManagedObjects") {
            [unowned self] result in
            switch result {
            case .success(let reply):
                if let objects = reply.single("a{oa{sa{sv}}}") {
                    self.devices = Self.devices(in: objects)
                } else {
                    self.problems.report(Self.provider, .reply, "GetManagedObjects answered \(reply.signatureForLog)",
                                         consequence: "no phones from it")
                    self.devices = []
                }
            case .failure(let e):
                self.problems.report(Self.provider, .reply, "GetManagedObjects failed: \(e.message)", consequence: "no phones from it")
                self.devices = []
            }
            self.publish()
            if self.gate.end() { self.refresh() }
        }
    }

    /// The paired, connected devices among the manager's objects, by name.
    static func devices(in objects: DBusValue) -> [Device] {
        guard case .dictionary(_, _, let entries) = objects else { return [] }
        var found: [Device] = []
        for (key, value) in entries {
            guard let path = key.objectPath, let interfaces = value.stringDictionary,
                  let properties = interfaces[deviceInterface]?.stringDictionary,
                  properties["Paired"]?.bool == true, properties["Connected"]?.bool == true,
                  let id = properties["Id"]?.string else { continue }
            found.append(Device(id: id, name: PhoneLimits.name(properties["Name"]?.string ?? "", id: id), path: path))
        }
        return Array(found.sorted { ($0.name, $0.id) < ($1.name, $1.id) }.prefix(PhoneLimits.phones))
    }

    private func publish() {
        let found = devices.compactMap { device -> Phone? in
            let base = Self.settingsPrefix + "device/" + device.id + "/"
            let supported = Set(settings?.value(at: base + "supported-plugins")?.strings ?? [])
            let disabled = Set(settings?.value(at: base + "disabled-plugins")?.strings ?? [])
            func loaded(_ plugin: String) -> Bool { supported.contains(plugin) && !disabled.contains(plugin) }
            let sends = settings?.value(at: base + "plugin/notification/send-notifications")?.boolean ?? true
            let forwards = loaded("notification") && sends
            guard forwards || loaded("ping") else { return nil }
            return Phone(app: .gsConnect, id: device.id, name: device.name, forwarding: forwards ? .everything : .off)
        }
        guard found != phones else { return }
        phones = found
        onChange?()
    }

    func ping(_ phone: Phone, message: String) {
        guard let device = devices.first(where: { $0.id == phone.id }) else { return }
        server.call(device.path, InterfaceName("org.gtk.Actions"), "Activate", [
            .string("ping"), .array(element: "v", [.variant(.string(message))]), .vardict([]),
        ]) { [unowned self] result in
            if case .failure(let e) = result {
                self.problems.report(Self.provider, .reply, "a ping to \(phone.name) was refused: \(e.message)",
                                     consequence: "the desktop's reminder still goes out")
            }
        }
    }
}
