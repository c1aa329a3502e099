import Testing
import DBusKit
import SystemdKit
import TestSupport
import LoopSupport
@testable import Autostart

/// The Background portal's request as icared sends it from the sandbox, against a portal of the
/// frontend's shape (FakeBackgroundPortal; the real one runs in FlatpakTests): what is asked, and every
/// answer it can get, including none and garbage.
@Suite struct BackgroundRequestTests {
    final class Rig: @unchecked Sendable {
        let bus: PrivateBus
        let loop: LoopThread
        let outcome = Box<BackgroundRequest.Outcome?>(nil)
        private var request: BackgroundRequest?

        init() throws {
            bus = try PrivateBus()
            loop = try LoopThread()
            loop.start()
        }
        deinit { loop.stop() }

        func ask() throws -> BackgroundRequest.Outcome? {
            let address = bus.address, outcome = self.outcome
            try loop.sync { [self] in
                let c = try Connection(address: address, loop: loop.loop)
                let r = BackgroundRequest(connection: c)
                request = r
                r.ask(reason: "To remind you.") { outcome.value = $0 }
            }
            _ = waitUntil(timeout: 10, interval: 0.02) { outcome.value != nil }
            return outcome.value
        }
    }

    @Test func allowedItAsksWithTheReasonAndTheCommandLine() throws {
        let rig = try Rig()
        let portal = FakeBackgroundPortal(answer: FakeBackgroundPortal.answer(allowed: true))
        try portal.appear(on: rig.loop, address: rig.bus.address)
        #expect(try rig.ask() == .allowed)
        let options = try #require(try rig.loop.sync { portal.calls.first })
        #expect(options["reason"]?.string == "To remind you.")
        #expect(options["autostart"]?.bool == true)
        // Without a command line 1.16 writes a broken Exec= line.
        #expect(options["commandline"]?.strings == ["icared"])
        #expect(options["dbus-activatable"]?.bool == false)
        #expect(options["handle_token"]?.string?.isEmpty == false)
    }

    @Test func refusedIsDenied() throws {
        let rig = try Rig()
        try FakeBackgroundPortal(answer: FakeBackgroundPortal.answer(allowed: false)).appear(on: rig.loop, address: rig.bus.address)
        #expect(try rig.ask() == .denied)
    }

    @Test func allowedToRunButNotToStartAtLoginIsDenied() throws {
        let rig = try Rig()
        let answer: [DBusValue] = [.uint32(0), .vardict([("background", .bool(true)), ("autostart", .bool(false))])]
        try FakeBackgroundPortal(answer: answer).appear(on: rig.loop, address: rig.bus.address)
        #expect(try rig.ask() == .denied)
    }

    @Test func noPortalIsUnavailableWithWhy() throws {
        let rig = try Rig()
        let outcome = try rig.ask()
        guard case .unavailable(let why) = outcome else { Issue.record("\(String(describing: outcome))"); return }
        #expect(why.hasPrefix("org.freedesktop.portal.Background.RequestBackground: "), "\(why)")
    }

    @Test func aResponseOfTheWrongShapeIsUnavailableWithWhy() throws {
        let rig = try Rig()
        try FakeBackgroundPortal(answer: [.string("yes")]).appear(on: rig.loop, address: rig.bus.address)
        #expect(try rig.ask() == .unavailable("its Response came with 's' instead of 'ua{sv}'"))
    }

    /// Someone else on the session sends a Response on icared's request path (which anyone can work out):
    /// not the portal, so not the answer; the portal's own answer still counts.
    @Test func aResponseFromAnotherProgramIsNotTheAnswer() throws {
        let rig = try Rig()
        let portal = FakeBackgroundPortal(answer: nil)
        try portal.appear(on: rig.loop, address: rig.bus.address)
        #expect(try rig.ask() == nil, "no answer yet")
        let handle = try #require(try rig.loop.sync { portal.handles.first })
        let intruder = FakeBusProgram(busName: "org.example.Intruder")
        try intruder.appear(on: rig.loop, address: rig.bus.address)
        try rig.loop.sync { intruder.sendSignal(handle, "org.freedesktop.portal.Request", "Response", FakeBackgroundPortal.answer(allowed: true)) }
        #expect(!waitUntil(timeout: 0.5, interval: 0.02) { rig.outcome.value != nil }, "an intruder's Response was taken")
        try rig.loop.sync { portal.respond(FakeBackgroundPortal.answer(allowed: false)) }
        #expect(waitUntil(timeout: 5, interval: 0.02) { rig.outcome.value == .denied })
    }
}
