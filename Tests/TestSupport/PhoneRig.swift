import Foundation

/// What `KDEConnectRig` and `GSConnectRig` share: the fake phone each pairs with its program, the
/// phone's commands, and bounded waits whose failure shows the rig's logs.
protocol PhoneRig: AnyObject {
    var busAddress: String { get }
    var deviceId: String { get }
    var phoneName: String { get }
    var protocolVersion: Int { get }
    var directory: URL { get }
    var timeout: TimeInterval { get }
    /// What runs a program in the rig's network namespace (nothing where a root's namespace holds the rig).
    var enter: [String] { get }
    var baseEnvironment: [String: String] { get }
    /// More arguments for `fake-phone.py` (e.g. `--no-run-command`).
    var phoneArguments: [String] { get }
    /// The phone, while it runs.
    var phone: FakePhone? { get }
    func logTail() -> String
}

extension PhoneRig {
    var phoneArguments: [String] { [] }

    /// Starts the fake phone in the rig's namespace, its state and errors in the rig's folder.
    func launchPhone() throws -> FakePhone {
        try FakePhone(launcher: enter, deviceId: deviceId, name: phoneName, protocolVersion: protocolVersion,
                      state: directory.appendingPathComponent("phone"), errors: directory.appendingPathComponent("phone.log").path,
                      arguments: phoneArguments, environment: baseEnvironment, timeout: timeout) { [weak self] in self?.logTail() ?? "" }
    }

    /// What both rigs need before their program: a notification server on the bus where none is
    /// there (their programs call it at start; nil: the caller's own serves), and the loopback
    /// namespace, the rig's own or the one of `pid` (a root's).
    func notificationServerAndNamespace(joining pid: Int32?) throws -> (server: Process?, namespace: LoopbackNamespace) {
        var env = baseEnvironment
        env["HOME"] = directory.path
        let server = try PhoneRigBus.notificationServerIfNone(
            busAddress: busAddress, environment: env, log: directory.appendingPathComponent("notifications.log").path, timeout: timeout)
        return (server, try pid.map { try LoopbackNamespace(joining: $0) } ?? LoopbackNamespace(environment: baseEnvironment))
    }

    /// Sends one command to the phone and waits for its answer; an `error …` answer throws.
    func command(_ line: String) throws {
        guard let phone else { throw HarnessError("the fake phone is not running") }
        try phone.command(line, timeout: timeout)
    }

    func wait(_ what: String, _ condition: () throws -> Bool) throws {
        guard try waitUntil(timeout: timeout, interval: 0.05, condition) else {
            throw HarnessError("timed out after \(Int(timeout)) s waiting for \(what)\n\(logTail())")
        }
    }
}
