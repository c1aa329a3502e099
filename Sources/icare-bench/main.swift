import Glibc
import DBusKit
import SystemdKit

// icare-bench: the compiled client behind bench/run.sh. Each subcommand
// prints `key value` lines that the script turns into a table.
//   roundtrip N        GetAll, Get and Peer.Ping on icared, Peer.Ping on the bus daemon
//   spawn N ICARED     spawn → org.icare.Reminder owned, N times
//   countdown SECONDS  acts as a notification server; measures countdown updates
//   gethistory N FROM TO   GetHistory round trips
//   watcher SECONDS    a StatusNotifierWatcher that counts registrations and NewIcon signals
//   render N           the ring renderer's time per size

func out(_ s: String) { _ = (s + "\n").withCString { write(1, $0, strlen($0)) } }
func fail(_ s: String) -> Never { _ = ("icare-bench: " + s + "\n").withCString { write(2, $0, strlen($0)) }; exit(1) }

func percentile(_ sorted: [Double], _ p: Double) -> Double {
    guard !sorted.isEmpty else { return 0 }
    return sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * p))]
}

func report(_ name: String, _ samples: [Double]) {
    let s = samples.sorted()
    let total = samples.reduce(0, +)
    out("\(name).p50_us \(Int(percentile(s, 0.5)))")
    out("\(name).p99_us \(Int(percentile(s, 0.99)))")
    out("\(name).per_s \(Int(Double(samples.count) / (total / 1_000_000)))")
}

func timed(_ n: Int, _ body: () throws(DBusError) -> Void) -> [Double] {
    var samples: [Double] = []
    samples.reserveCapacity(n)
    for _ in 0..<n {
        let t0 = Clock.monotonic.now()
        do { try body() } catch { fail("call failed: \(error)") }
        samples.append(Double(Clock.monotonic.now() - t0))
    }
    return samples
}

func roundtrip(_ n: Int) {
    guard let loop = try? EventLoop(), let bus = try? Connection(bus: .session, loop: loop) else { fail("no session bus") }
    let getAll = Message.methodCall(destination: BusName("org.icare.Reminder"), path: ObjectPath("/org/icare/Reminder"),
                                    interface: .properties, member: MemberName("GetAll"), arguments: [.string("org.icare.Reminder")])
    let ping = Message.methodCall(destination: BusName("org.icare.Reminder"), path: ObjectPath("/org/icare/Reminder"),
                                  interface: .peer, member: MemberName("Ping"))
    let busPing = Message.methodCall(destination: BusName("org.freedesktop.DBus"), path: ObjectPath("/org/freedesktop/DBus"),
                                     interface: .peer, member: MemberName("Ping"))
    // One small property through the same dispatch: tells the service's own
    // cost apart from the cost of GetAll's larger reply on the wire.
    let get = Message.methodCall(destination: BusName("org.icare.Reminder"), path: ObjectPath("/org/icare/Reminder"),
                                 interface: .properties, member: MemberName("Get"),
                                 arguments: [.string("org.icare.Reminder"), .string("State")])
    // Warm up, then interleave them so machine noise hits them alike.
    for _ in 0..<200 { for m in [getAll, get, ping, busPing] { _ = try? bus.callBlocking(m) } }
    var a: [Double] = [], g: [Double] = [], b: [Double] = [], c: [Double] = []
    for _ in 0..<(n / 100) {
        a += timed(100) { () throws(DBusError) in _ = try bus.callBlocking(getAll) }
        g += timed(100) { () throws(DBusError) in _ = try bus.callBlocking(get) }
        b += timed(100) { () throws(DBusError) in _ = try bus.callBlocking(ping) }
        c += timed(100) { () throws(DBusError) in _ = try bus.callBlocking(busPing) }
    }
    report("getall", a)
    report("get", g)
    report("ping_icared", b)
    report("ping_bus", c)
}

func spawnTimes(_ n: Int, _ icared: String) {
    var samples: [Double] = []
    for _ in 0..<n {
        guard let loop = try? EventLoop(), let bus = try? Connection(bus: .session, loop: loop) else { fail("no session bus") }
        var owned: UInt64 = 0
        let t0Box = UnsafeMutablePointer<UInt64>.allocate(capacity: 1)
        defer { t0Box.deallocate() }
        let sub = bus.subscribe(MatchRule(sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus",
                                          member: "NameOwnerChanged", arg0: "org.icare.Reminder")) { m in
            if let args = try? m.arguments(), args.count == 3, args[2].string?.isEmpty == false {
                owned = Clock.monotonic.now()
                loop.exit(0)
            }
        }
        // Make sure the match is in place before spawning.
        _ = try? bus.callBlocking(.methodCall(destination: BusName("org.freedesktop.DBus"), path: ObjectPath("/org/freedesktop/DBus"),
                                              interface: .peer, member: MemberName("Ping")))
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup(icared), strdup("--log-stderr"), nil]
        defer { argv.forEach { free($0) } }
        t0Box.pointee = Clock.monotonic.now()
        guard posix_spawn(&pid, icared, nil, nil, argv, environ) == 0 else { fail("cannot spawn \(icared)") }
        let guardTimer = try? loop.addTimer(clock: .monotonic, at: Clock.monotonic.now() + 5_000_000, accuracy: 1000) { loop.exit(1) }
        _ = try? loop.run()
        _ = guardTimer
        sub.cancel()
        kill(pid, SIGTERM)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        guard owned > 0 else { fail("icared did not take its name") }
        samples.append(Double(owned - t0Box.pointee))
    }
    let s = samples.sorted()
    out("spawn.p50_us \(Int(percentile(s, 0.5)))")
    out("spawn.max_us \(Int(s.last ?? 0))")
}

/// Serves org.freedesktop.Notifications, starts a break on icared, and
/// records when each countdown update arrives against the break's end.
func countdown(_ seconds: UInt32) {
    guard let loop = try? EventLoop(), let bus = try? Connection(bus: .session, loop: loop) else { fail("no session bus") }
    var arrivals: [(UInt64, String)] = []
    var nextID: UInt32 = 1
    let server = ExportedObject(path: ObjectPath("/org/freedesktop/Notifications"), interfaces: [
        Interface("org.freedesktop.Notifications", doc: "", methods: [
            Method("Notify", in: [Argument("app_name", "s"), Argument("replaces_id", "u"), Argument("app_icon", "s"), Argument("summary", "s"),
                                  Argument("body", "s"), Argument("actions", "as"), Argument("hints", "a{sv}"), Argument("expire_timeout", "i")],
                   out: [Argument("id", "u")], doc: "") { call throws(DBusError) in
                arrivals.append((Clock.realtime.now(), call.arguments[3].string ?? ""))
                let replaces = call.arguments[1].uint32 ?? 0
                if replaces == 0 { nextID += 1; return [.uint32(nextID)] }
                return [.uint32(replaces)]
            },
            Method("CloseNotification", in: [Argument("id", "u")], doc: "") { _ throws(DBusError) in [] },
            Method("GetCapabilities", out: [Argument("caps", "as")], doc: "") { _ throws(DBusError) in [.strings(["actions", "body"])] },
            Method("GetServerInformation", out: [Argument("name", "s"), Argument("vendor", "s"), Argument("version", "s"), Argument("spec", "s")],
                   doc: "") { _ throws(DBusError) in [.string("bench"), .string("icare"), .string("1"), .string("1.2")] },
        ]),
    ])
    bus.export(server)
    guard (try? bus.requestName(BusName("org.freedesktop.Notifications"))) == .primaryOwner else { fail("notification name taken") }
    let setDuration = Message.methodCall(destination: BusName("org.icare.Reminder"), path: ObjectPath("/org/icare/Reminder"),
                                         interface: .properties, member: MemberName("Set"),
                                         arguments: [.string("org.icare.Reminder"), .string("BreakDuration"), .variant(.uint32(seconds))])
    var ends: UInt64 = 0
    var started = false
    let kick = try? loop.addTimer(clock: .monotonic, at: Clock.monotonic.now() + 300_000, accuracy: 1000) {
        bus.call(setDuration) { _ in
            bus.call(.methodCall(destination: BusName("org.icare.Reminder"), path: ObjectPath("/org/icare/Reminder"),
                                 interface: InterfaceName("org.icare.Reminder"), member: MemberName("StartBreak"))) { _ in
                bus.call(.methodCall(destination: BusName("org.icare.Reminder"), path: ObjectPath("/org/icare/Reminder"),
                                     interface: .properties, member: MemberName("Get"),
                                     arguments: [.string("org.icare.Reminder"), .string("BreakEnds")])) { r in
                    if case .success(let m) = r, let v = (try? m.arguments())?.first?.uint64 { ends = v; started = true }
                }
            }
        }
    }
    let stop = try? loop.addTimer(clock: .monotonic, at: Clock.monotonic.now() + UInt64(seconds + 3) * 1_000_000, accuracy: 1000) { loop.exit(0) }
    _ = try? loop.run()
    _ = (kick, stop)
    guard started, ends > 0 else { fail("the break did not start") }
    // Updates after the first (which answers StartBreak) should land on whole seconds before the end.
    let updates = arrivals.filter { $0.1.hasPrefix("Look far away") }.dropFirst().map { $0.0 }
    var offsets: [Double] = []
    for t in updates {
        let toEnd = Int64(ends) - Int64(t)
        let rem = ((toEnd % 1_000_000) + 1_000_000) % 1_000_000
        let off = min(rem, 1_000_000 - rem)   // distance to the nearest whole second before the end
        offsets.append(Double(off))
    }
    let s = offsets.sorted()
    out("countdown.updates \(updates.count)")
    out("countdown.max_offset_us \(Int(s.last ?? -1))")
    out("countdown.p50_offset_us \(Int(percentile(s, 0.5)))")
}

func getHistory(_ n: Int, _ from: UInt64, _ to: UInt64) {
    guard let loop = try? EventLoop(), let bus = try? Connection(bus: .session, loop: loop) else { fail("no session bus") }
    let m = Message.methodCall(destination: BusName("org.icare.Reminder"), path: ObjectPath("/org/icare/Reminder"),
                               interface: InterfaceName("org.icare.Reminder"), member: MemberName("GetHistory"),
                               arguments: [.uint64(from), .uint64(to)])
    for _ in 0..<20 { _ = try? bus.callBlocking(m) }
    report("gethistory", timed(n) { () throws(DBusError) in _ = try bus.callBlocking(m) })
}

let args = CommandLine.arguments
switch (args.count > 1 ? args[1] : "", args.count) {
case ("roundtrip", 3): roundtrip(Int(args[2]) ?? 5000)
case ("spawn", 4): spawnTimes(Int(args[2]) ?? 20, args[3])
case ("countdown", 3): countdown(UInt32(args[2]) ?? 30)
case ("gethistory", 5): getHistory(Int(args[2]) ?? 1000, UInt64(args[3]) ?? 0, UInt64(args[4]) ?? 0)
case ("watcher", 3): sniWatcher(UInt64(args[2]) ?? 60)
case ("render", 3): renderTimes(Int(args[2]) ?? 200)
default: fail("usage: icare-bench roundtrip N | spawn N ICARED | countdown SECONDS | gethistory N FROM TO | watcher SECONDS | render N")
}
