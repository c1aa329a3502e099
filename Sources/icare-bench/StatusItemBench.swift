import Glibc
import DBusKit
import SystemdKit
import RingDrawing

// The status item's figures: a watcher that counts what the item sends, and the renderer's speed.

/// Owns org.kde.StatusNotifierWatcher (the shape in docs/desktop-facts.md)
/// for `seconds`, accepts registrations and counts the item's NewIcon signals.
func sniWatcher(_ seconds: UInt64) {
    guard let loop = try? EventLoop(), let bus = try? Connection(bus: .session, loop: loop) else { fail("no session bus") }
    var registrations = 0
    var icons = 0
    let iface = Interface("org.kde.StatusNotifierWatcher", doc: "", methods: [
        Method("RegisterStatusNotifierItem", in: [Argument("service", "s")], doc: "") { _ in
            registrations += 1
            return []
        },
        Method("RegisterStatusNotifierHost", in: [Argument("service", "s")], doc: "") { _ in [] },
    ], properties: [
        Property("RegisteredStatusNotifierItems", "as", doc: "") { .strings([]) },
        Property("IsStatusNotifierHostRegistered", "b", doc: "") { .bool(true) },
        Property("ProtocolVersion", "i", doc: "") { .int32(0) },
    ])
    bus.export(ExportedObject(path: ObjectPath("/StatusNotifierWatcher"), interfaces: [iface]))
    let sub = bus.subscribe(MatchRule(interface: "org.kde.StatusNotifierItem", member: "NewIcon")) { _ in icons += 1 }
    guard (try? bus.requestName(BusName("org.kde.StatusNotifierWatcher"))) == .primaryOwner else { fail("the watcher name is taken") }
    let end = try? loop.addTimer(clock: .monotonic, at: Clock.monotonic.now() + seconds * 1_000_000, accuracy: 1_000) { loop.exit(0) }
    _ = try? loop.run()
    withExtendedLifetime((sub, end)) {}
    out("watcher.registrations \(registrations)")
    out("watcher.new_icon \(icons)")
}

/// Renders the ring `n` times at each size; the median time per size.
func renderTimes(_ n: Int) {
    for size in RingRenderer.sizes {
        var samples: [Double] = []
        for i in 0..<n {
            let t0 = Clock.monotonic.now()
            let image = RingRenderer.render(size: size, fraction: Double(i % 60) / 60, look: .waiting)
            samples.append(Double(Clock.monotonic.now() - t0))
            if image.bytes.count != size * size * 4 { fail("bad image") }
        }
        out("render.\(size)_p50_us \(Int(percentile(samples.sorted(), 0.5)))")
    }
}
