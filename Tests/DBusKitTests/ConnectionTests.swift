import Testing
import Foundation
import DBusKit
import SystemdKit
import TestSupport
import LoopSupport

@Suite struct ConnectionTests {
    @Test func exportedObjectAnswersCallsPropertiesAndIntrospection() throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let lt = try LoopThread()
        let counter = Box<UInt32>(7)
        let ready = Box(false)
        let serverName = Box("")
        var server: Connection?
        var object: ExportedObject?
        lt.perform {
            server = try! Connection(address: bus.address, loop: lt.loop)
            object = ExportedObject(path: ObjectPath("/org/example/Thing"), interfaces: [
                Interface("org.example.Thing", doc: "A thing for tests.", methods: [
                    Method("Add", in: [Argument("n", "u")], out: [Argument("total", "u")], doc: "Adds n.") { call throws(DBusError) in
                        guard let n = call.arguments[0].uint32, n < 100 else { throw DBusError.invalidArgs("n must be below 100.") }
                        counter.value += n
                        object!.emitPropertiesChanged(InterfaceName("org.example.Thing"), ["Count"])
                        return [.uint32(counter.value)]
                    },
                ], properties: [
                    Property("Count", "u", doc: "The count.", read: { .uint32(counter.value) },
                             write: { v throws(DBusError) in
                                 counter.value = v.uint32!
                                 object!.emitPropertiesChanged(InterfaceName("org.example.Thing"), ["Count"])
                             }),
                    Property("Name", "s", doc: "Read-only.", read: { .string("thing") }),
                ], signals: [SignalDescription("Poked", [Argument("n", "u")], doc: "Poked.")]),
            ])
            server!.export(object!)
            _ = try! server!.requestName(BusName("org.example.Thing"))
            serverName.value = server!.uniqueName
            ready.value = true
        }
        lt.start()
        defer { lt.stop() }
        #expect(waitUntil { ready.value })
        let env = bus.environment
        let r = try Subprocess.run(["busctl", "--user", "call", "org.example.Thing", "/org/example/Thing", "org.example.Thing", "Add", "u", "5"], environment: env)
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout == "u 12\n")
        let bad = try Subprocess.run(["busctl", "--user", "call", "org.example.Thing", "/org/example/Thing", "org.example.Thing", "Add", "s", "x"], environment: env)
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("takes arguments of type 'u', not 's'"), "\(bad)")
        let range = try Subprocess.run(["busctl", "--user", "call", "org.example.Thing", "/org/example/Thing", "org.example.Thing", "Add", "u", "500"], environment: env)
        #expect(range.stderr.contains("n must be below 100."), "\(range)")
        let get = try Subprocess.run(["busctl", "--user", "get-property", "org.example.Thing", "/org/example/Thing", "org.example.Thing", "Count"], environment: env)
        #expect(get.stdout == "u 12\n", "\(get)")
        // GetAll replies are reused only while no value changed: read, change, read again.
        let before = try Subprocess.run(["busctl", "--user", "call", "org.example.Thing", "/org/example/Thing", "org.freedesktop.DBus.Properties", "GetAll", "s", "org.example.Thing"], environment: env)
        #expect(before.stdout == "a{sv} 2 \"Count\" u 12 \"Name\" s \"thing\"\n", "\(before)")
        let again = try Subprocess.run(["busctl", "--user", "call", "org.example.Thing", "/org/example/Thing", "org.freedesktop.DBus.Properties", "GetAll", "s", "org.example.Thing"], environment: env)
        #expect(again.stdout == before.stdout, "a reused reply must be addressed to its caller: \(again)")
        let set = try Subprocess.run(["busctl", "--user", "set-property", "org.example.Thing", "/org/example/Thing", "org.example.Thing", "Count", "u", "3"], environment: env)
        #expect(set.status == 0, "\(set)")
        #expect(counter.value == 3)
        let ro = try Subprocess.run(["busctl", "--user", "set-property", "org.example.Thing", "/org/example/Thing", "org.example.Thing", "Name", "s", "x"], environment: env)
        #expect(ro.stderr.contains("read-only"), "\(ro)")
        let intro = try Subprocess.run(["busctl", "--user", "introspect", "--xml-interface", "org.example.Thing", "/org/example/Thing"], environment: env)
        #expect(intro.stdout.contains("<method name=\"Add\">"), "\(intro)")
        #expect(intro.stdout.contains("<!-- Adds n. -->"))
        let tree = try Subprocess.run(["busctl", "--user", "tree", "--list", "org.example.Thing"], environment: env)
        #expect(tree.stdout.contains("/org/example/Thing"), "\(tree)")
        let ping = try Subprocess.run(["busctl", "--user", "call", "org.example.Thing", "/org/example/Thing", "org.freedesktop.DBus.Peer", "Ping"], environment: env)
        #expect(ping.status == 0, "\(ping)")
        let nobody = try Subprocess.run(["busctl", "--user", "call", "org.example.Thing", "/nope", "org.example.Thing", "Add", "u", "1"], environment: env)
        #expect(nobody.stderr.contains("There is no object at /nope."), "\(nobody)")
        let gdbus = try Subprocess.run(["gdbus", "call", "--session", "--dest", "org.example.Thing", "--object-path", "/org/example/Thing",
                                        "--method", "org.freedesktop.DBus.Properties.GetAll", "org.example.Thing"], environment: env)
        #expect(gdbus.stdout.contains("'Count': <uint32 3>"), "\(gdbus)")
        _ = server
    }

    @Test func asyncCallsSignalsAndNameOwnerTracking() throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let lt = try LoopThread()
        let events = Box<[String]>([])
        var client: Connection?
        var subs: [AnyObject] = []
        lt.perform {
            client = try! Connection(address: bus.address, loop: lt.loop)
            subs.append(client!.watchName(BusName("org.example.Late")) { owner in
                events.value.append(owner == nil ? "gone" : "owned")
            })
            subs.append(client!.subscribe(MatchRule(sender: "org.example.Late", interface: "org.example.Late", member: "Hello")) { m in
                let args = (try? m.arguments()) ?? []
                events.value.append("hello \(args.first?.structure?.first?.string ?? "?")")
            })
            let call = Message.methodCall(destination: BusName("org.freedesktop.DBus"), path: ObjectPath("/org/freedesktop/DBus"),
                                          interface: InterfaceName("org.freedesktop.DBus"), member: MemberName("ListNames"))
            client!.call(call) { result in
                if case .success(let reply) = result, let names = (try? reply.arguments())?.first?.strings, names.contains("org.freedesktop.DBus") {
                    events.value.append("listed")
                }
            }
            let missing = Message.methodCall(destination: BusName("org.example.Nobody"), path: ObjectPath("/"),
                                             interface: InterfaceName("org.example.Nobody"), member: MemberName("X"))
            client!.call(missing) { result in
                if case .failure(let e) = result { events.value.append(e.name) }
            }
        }
        lt.start()
        defer { lt.stop() }
        #expect(waitUntil { events.value.contains("listed") && events.value.contains("gone") })
        #expect(waitUntil { events.value.contains("org.freedesktop.DBus.Error.ServiceUnknown") })
        // A second process takes the name and emits a signal with a struct argument.
        let owner = try Subprocess.start(["gdbus", "call", "--session", "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus",
                                          "--method", "org.freedesktop.DBus.RequestName", "org.example.Late", "0"], environment: bus.environment)
        owner.waitUntilExit()
        // gdbus exits at once, so the name comes and goes: both must be seen.
        #expect(waitUntil { events.value.filter { $0 == "owned" }.count >= 1 && events.value.last == "gone" }, "\(events.value)")
        _ = subs
        _ = client
    }

    @Test func valuesRoundTripThroughMessages() throws {
        let values: [DBusValue] = [
            .byte(7), .bool(true), .int16(-3), .uint16(3), .int32(-70000), .uint32(70000), .int64(-1 << 40), .uint64(1 << 50),
            .double(2.5), .string("héllo"), .objectPath(ObjectPath("/a/b")), .signature("a{sv}"),
            .array(element: "s", []), .strings(["a", "b"]),
            .vardict([("k", .uint32(1)), ("nested", .vardict([("x", .bool(false))]))]),
            .structure([.uint64(1), .string("completed"), .uint32(20)]),
            .array(element: "(tsu)", [.structure([.uint64(1), .string("s"), .uint32(2)])]),
            .variant(.variant(.int32(1))),
        ]
        let m = Message.signal(path: ObjectPath("/t"), interface: InterfaceName("org.example.T"), member: MemberName("S"), arguments: values)
        let back = try m.arguments()
        #expect(back == values)
        #expect(m.signature == values.map(\.signature.rawValue).joined())

        // Bytes held compactly are written as `ay` and read back as an array of bytes, equal to them.
        let blob: [UInt8] = [0, 1, 0x7F, 0x80, 0xFF]
        let packed = Message.signal(path: ObjectPath("/t"), interface: InterfaceName("org.example.T"), member: MemberName("S"),
                                    arguments: [.bytes(blob), .bytes([]), .structure([.int32(1), .bytes(blob)])])
        #expect(packed.signature == "ayay(iay)")
        let read = try packed.arguments()
        #expect(read[0] == .array(element: "y", blob.map { .byte($0) }))
        #expect(read[0] == .bytes(blob) && read[1] == .bytes([]) && read[1].array?.isEmpty == true)
        #expect(read[2] == .structure([.int32(1), .bytes(blob)]))
    }

    @Test func namesAreValidated() {
        #expect(ObjectPath(rawValue: "/ok/path") != nil)
        #expect(ObjectPath(rawValue: "no/slash") == nil)
        #expect(ObjectPath(rawValue: "/trailing/") == nil)
        #expect(BusName(rawValue: "org.icare.Reminder") != nil)
        #expect(BusName(rawValue: "nodots") == nil)
        #expect(InterfaceName(rawValue: "org.icare.Reminder") != nil)
        #expect(MemberName(rawValue: "Start-Break") == nil)
        #expect(Signature(rawValue: "a{sv}") != nil)
        #expect(Signature(rawValue: "a{vs}") == nil)
        #expect(MatchRule(sender: "org.a.B", member: "X", arg0: "it's").description == "type='signal',sender='org.a.B',member='X',arg0='it'\\''s'")
    }
}
