import DBusKit
import LoopSupport

/// A StatusNotifierWatcher with the shape in docs/desktop-facts.md, which
/// was read from the spec and waybar's `src/modules/sni/watcher.cpp`:
/// `RegisterStatusNotifierItem(s)` takes a bus name (item at
/// `/StatusNotifierItem`) or a path (the caller's name), announces
/// `StatusNotifierItemRegistered("name/path")`, and drops an item when its
/// bus name loses its owner. A restart (`vanish` then `appear`) forgets every
/// item, as the real ones do. Touched only on the loop thread.
final class FakeWatcher: FakeBusProgram {
    /// The items registered with this appearance, as `busname/path`.
    private(set) var items: [String] = []
    /// Every registration call over all appearances, as given.
    private(set) var calls: [String] = []
    private var watches: [String: NameWatch] = [:]

    init() { super.init(busName: "org.kde.StatusNotifierWatcher") }

    override func makeObjects() -> [ExportedObject] {
        items = []
        watches = [:]
        let iface = Interface(
            "org.kde.StatusNotifierWatcher", doc: "",
            methods: [
                Method("RegisterStatusNotifierItem", in: [Argument("service", "s")], doc: "") { [unowned self] (call: MethodCall) throws(DBusError) -> [DBusValue] in
                    let service = call.arguments[0].string!
                    let (name, path) = service.hasPrefix("/") ? (call.sender, service) : (service, "/StatusNotifierItem")
                    guard BusName(rawValue: name) != nil else { throw DBusError.invalidArgs("D-Bus bus name '\(name)' is not valid") }
                    self.calls.append(service)
                    let key = name + path
                    guard !self.items.contains(key) else { return [] }
                    self.items.append(key)
                    self.watches[key] = self.connection?.watchName(BusName(name)) { [unowned self] owner in
                        guard owner == nil, self.items.contains(key) else { return }
                        self.items.removeAll { $0 == key }
                        self.sendSignal("/StatusNotifierWatcher", "org.kde.StatusNotifierWatcher", "StatusNotifierItemUnregistered", [.string(key)])
                    }
                    self.sendSignal("/StatusNotifierWatcher", "org.kde.StatusNotifierWatcher", "StatusNotifierItemRegistered", [.string(key)])
                    return []
                },
                Method("RegisterStatusNotifierHost", in: [Argument("service", "s")], doc: "") { _ in [] },
            ],
            properties: [
                Property("RegisteredStatusNotifierItems", "as", doc: "") { [unowned self] in .strings(self.items) },
                Property("IsStatusNotifierHostRegistered", "b", doc: "") { .bool(true) },
                Property("ProtocolVersion", "i", doc: "") { .int32(0) },
            ],
            signals: [
                SignalDescription("StatusNotifierItemRegistered", [Argument("service", "s")], doc: ""),
                SignalDescription("StatusNotifierItemUnregistered", [Argument("service", "s")], doc: ""),
                SignalDescription("StatusNotifierHostRegistered", doc: ""),
                SignalDescription("StatusNotifierHostUnregistered", doc: ""),
            ])
        return [ExportedObject(path: ObjectPath("/StatusNotifierWatcher"), interfaces: [iface])]
    }
}
