import Testing
import Foundation
import TestSupport

/// icared started by `service` as installed, under strace, with a monitor on its buses; `finish` stops it
/// (SIGTERM) and gives what it did.
final class WatchedICared {
    let service: ServiceHarness
    let session: BusRecorder
    let system: BusRecorder?
    let syscalls: SyscallWatch
    private var pid: pid_t?

    init(service: ServiceHarness, system: PrivateBus?) throws {
        self.service = service
        session = try BusRecorder(address: service.bus.address)
        self.system = try system.map { try BusRecorder(address: $0.address) }
        syscalls = try SyscallWatch()
    }

    /// Starts icared (after `service.launcher`'s own words) inside its unit's sandbox, under strace; its process id.
    func start() throws -> pid_t {
        service.bare = true
        service.program = PrivacyWatchTests.icared
        service.launcher = syscalls.launcher + service.launcher + [ServiceHarness.unitSandbox, ServiceHarness.unitTemplate, "--"]
        try service.start(arguments: PrivacyWatchTests.arguments)
        guard let pid = try service.ownerProcess(of: "org.icare.Reminder") else { throw HarnessError("icared left the bus; log:\n\(service.log)") }
        self.pid = pid
        return pid
    }

    /// Stops icared and strace; the record, normalized.
    func finish(normalize: PathNormalizer) throws -> PrivacyRecord {
        guard let pid else { throw HarnessError("icared was not started") }
        let sessionNames = try session.connections(of: [pid]), systemNames = try system?.connections(of: [pid]) ?? []
        kill(pid, SIGTERM)
        guard let strace = service.process, waitUntil(timeout: 10, { !strace.isRunning }) else {
            throw HarnessError("icared did not stop on SIGTERM; log:\n\(service.log)")
        }
        var record = PrivacyRecord()
        session.record(sessionNames, as: "session bus", into: &record)
        system?.record(systemNames, as: "system bus", into: &record)
        let (files, connects) = try syscalls.record(of: PrivacyWatchTests.icared, normalize: normalize)
        record.merge(files)
        // Every connection icared made to a bus was told by its process id: none went unrecorded.
        #expect(connects["$DBUS_SESSION_BUS_ADDRESS", default: 0] == sessionNames.count,
                "icared connected to the session bus \(connects["$DBUS_SESSION_BUS_ADDRESS", default: 0]) times; recorded: \(sessionNames)")
        #expect(connects["$DBUS_SYSTEM_BUS_ADDRESS", default: 0] == systemNames.count,
                "icared connected to the system bus \(connects["$DBUS_SYSTEM_BUS_ADDRESS", default: 0]) times; recorded: \(systemNames)")
        return record
    }

    func stop() {
        session.stop()
        system?.stop()
        syscalls.remove()
    }
}
