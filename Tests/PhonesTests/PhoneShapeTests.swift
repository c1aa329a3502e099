import Testing
import DBusKit
import DesktopWatch
@testable import Phones

/// The pure parts of the Phones target: which KDE Connect keeps hinted notifications on the desktop,
/// which of GSConnect's objects are phones iCare can remind, and the one-read-at-a-time gate.
/// What the real programs do is in IntegrationTests/PhoneReminderTests (kdeconnectd 22.12) and
/// RootDesktopTests/PhoneRootTests (25.04, 26.08).
struct PhoneShapeTests {
    @Test(arguments: [("22.12.3", false), ("25.04.2", false), ("26.04.3", false), ("26.08.0", true), ("26.08.2", true),
                      ("27.02.1", true), ("26.07.80", true), ("26.07.0", false), ("26", false), ("", false), ("garbage", false), ("26.x", false)])
    func kdeConnectDropsHintedNotificationsFrom2608On(version: String, drops: Bool) {
        #expect(KDEConnectPhones.dropsHinted(version: version) == drops, "\(version)")
    }

    static func device(_ path: String, _ properties: [(String, DBusValue)], interface: String = GSConnectPhones.deviceInterface) -> (DBusValue, DBusValue) {
        (.objectPath(ObjectPath(path)),
         .dictionary(key: "s", value: "a{sv}", [(.string(interface), .vardict(properties))]))
    }

    @Test func gsConnectListsOnlyPairedConnectedDevicesByName() {
        let base = "/org/gnome/Shell/Extensions/GSConnect/Device/"
        let objects = DBusValue.dictionary(key: "o", value: "a{sa{sv}}", [
            Self.device(base + "b", [("Id", .string("b")), ("Name", .string("Pixel 7")), ("Paired", .bool(true)), ("Connected", .bool(true))]),
            Self.device(base + "a", [("Id", .string("a")), ("Name", .string("Fairphone")), ("Paired", .bool(true)), ("Connected", .bool(true))]),
            Self.device(base + "c", [("Id", .string("c")), ("Name", .string("Away")), ("Paired", .bool(true)), ("Connected", .bool(false))]),
            Self.device(base + "d", [("Id", .string("d")), ("Name", .string("Stranger")), ("Paired", .bool(false)), ("Connected", .bool(true))]),
            Self.device(base + "e", [("Name", .string("No id")), ("Paired", .bool(true)), ("Connected", .bool(true))]),
            Self.device(base + "f", [("Id", .string("f")), ("Paired", .bool(true)), ("Connected", .bool(true))], interface: "org.example.Other"),
            Self.device(base + "g", [("Id", .string("g")), ("Paired", .string("yes")), ("Connected", .bool(true))]),
        ])
        let devices = GSConnectPhones.devices(in: objects)
        #expect(devices.map(\.name) == ["Fairphone", "Pixel 7"])
        #expect(devices.map(\.path.rawValue) == [base + "a", base + "b"])
        #expect(GSConnectPhones.devices(in: .string("not a dictionary")).isEmpty)
    }

    @Test func theGateRunsOneReadAndOneMoreForTriggersMeanwhile() {
        var gate = RefreshGate()
        var steps: [Bool] = []
        steps.append(gate.begin())
        steps.append(gate.begin())
        steps.append(gate.begin())
        steps.append(gate.end())   // triggers came during the read: one more
        steps.append(gate.begin())
        steps.append(gate.end())   // none came: done
        steps.append(gate.begin())
        gate.reset()
        steps.append(gate.begin()) // after the program went away, a new read may begin
        #expect(steps == [true, false, false, true, true, false, true, true])
    }

    @Test func aStrangerHoldingTheNameCannotListThousandsOrNovels() {
        let base = "/org/gnome/Shell/Extensions/GSConnect/Device/"
        let many = (0..<500).map { i in
            Self.device(base + "d\(i)", [("Id", .string("d\(i)")), ("Name", .string(String(repeating: "x", count: 10_000))),
                                       ("Paired", .bool(true)), ("Connected", .bool(true))])
        }
        let devices = GSConnectPhones.devices(in: .dictionary(key: "o", value: "a{sa{sv}}", many))
        #expect(devices.count == PhoneLimits.phones)
        #expect(devices.allSatisfy { $0.name.count == PhoneLimits.nameLength && $0.name.hasSuffix("…") })
        #expect(PhoneLimits.name("", id: "abc") == "abc")
        #expect(PhoneLimits.name("Pixel 7", id: "abc") == "Pixel 7")
    }

    @Test func aPhoneIsListedWithItsProgram() {
        #expect(Phone(app: .kdeConnect, id: "x", name: "Pixel 7", forwarding: .off).label == "Pixel 7 (KDE Connect)")
        #expect(Phone(app: .gsConnect, id: "x", name: "Pixel 7", forwarding: .everything).label == "Pixel 7 (GSConnect)")
    }
}
