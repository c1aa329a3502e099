import Testing
import Foundation
import TestSupport

/// A break taken at the desk in the phone suites (`BreakWindow` says why it is told apart from the next).
struct PhoneBreak {
    let window: BreakWindow

    /// Clicks Start on `reminder` and waits until the break is over (any state but `break`).
    init(_ reminder: NotifyRecord, server: FakeNotificationServer, service: ServiceHarness,
         breakSeconds: Double, intervalSeconds: Double) throws {
        window = BreakWindow(breakSeconds: breakSeconds, scaledIntervalSeconds: intervalSeconds)
        try server.click(reminder.id, "start")
        #expect(try waitUntil(timeout: 5) { try service.string("State") == "break" })
        let over = try waitUntil(timeout: breakSeconds + 20) { try service.string("State") != "break" }
        #expect(over, "the \(Int(breakSeconds)) s break ends; log:\n\(service.log)")
        Thread.sleep(forTimeInterval: 1)
    }

    /// The phone's packets received during this break's cycle.
    func ofThisBreak(_ packets: [[String: Any]]) -> [[String: Any]] { window.ofThisBreak(packets) }

    /// The desktop's notifications after `reminder` within this break's cycle.
    func after(_ reminder: NotifyRecord, in server: FakeNotificationServer) -> [NotifyRecord] {
        server.iCareNotifies.filter { $0.time > reminder.time && window.contains($0.time) }
    }
}
