import Testing
import Foundation
import TestSupport
import WaylandIdle

/// The choice of protocol and the idle/timeout rules, apart from the wire.
@Suite struct RulesTests {
    @Test func theProtocolIsExtWhereOfferedElseKdeAndNeedsASeat() {
        #expect(IdleProtocol.choose(from: ["wl_seat", "org_kde_kwin_idle", "ext_idle_notifier_v1"]) == .extIdleNotify)
        #expect(IdleProtocol.choose(from: ["wl_seat", "org_kde_kwin_idle"]) == .kdeIdle)
        #expect(IdleProtocol.choose(from: ["wl_seat", "zwp_idle_inhibit_manager_v1"]) == nil)
        #expect(IdleProtocol.choose(from: ["ext_idle_notifier_v1"]) == nil)
    }

    @Test func idleAndResumedAreReportedOnceEachAndOnlyWithAnObject() {
        var t = IdleTracker(timeoutMs: 20_000)
        #expect(t.idled() == .init(), "no object yet: nothing can have said idle")
        t.created(ms: 20_000)
        #expect(t.resumed() == .init(), "resumed without idle is no news")
        #expect(t.idled() == .init(report: true))
        #expect(t.idled() == .init())
        #expect(t.resumed() == .init(report: false))
        #expect(!t.idle)
    }

    @Test func aNewTimeoutWaitsForTheReturnWhileIdle() {
        var t = IdleTracker(timeoutMs: 20_000)
        #expect(t.setTimeout(ms: 30_000) == .init(), "no object yet: it is made with the wanted timeout")
        t.created(ms: t.wantedMs)
        #expect(t.activeMs == 30_000)
        #expect(t.setTimeout(ms: 30_000) == .init())
        #expect(t.setTimeout(ms: 10_000) == .init(recreate: 10_000))
        t.created(ms: 10_000)
        _ = t.idled()
        #expect(t.setTimeout(ms: 25_000) == .init())
        #expect(t.setTimeout(ms: 15_000) == .init())
        #expect(t.resumed() == .init(report: false, recreate: 15_000))
        t.created(ms: 15_000)
        _ = t.idled()
        #expect(t.setTimeout(ms: 10_000) == .init())
        #expect(t.setTimeout(ms: 15_000) == .init())
        #expect(t.resumed() == .init(report: false), "back to the timeout in force: nothing to replace")
    }

    @Test func losingTheCompositorEndsIdle() {
        var t = IdleTracker(timeoutMs: 20_000)
        t.created(ms: 20_000)
        #expect(t.lost() == .init())
        t.created(ms: 20_000)
        _ = t.idled()
        #expect(t.lost() == .init(report: false))
        #expect(t.activeMs == nil)
        #expect(t.idled() == .init(), "no object: nothing more")
    }

    @Test func theKeptGlueIsWhatWaylandScannerMakesFromTheInstalledXML() throws {
        let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let r = try Subprocess.run([repo.appendingPathComponent("scripts/wayland-protocols").path, "--check"])
        #expect(r.status == 0, "\(r)")
    }
}
