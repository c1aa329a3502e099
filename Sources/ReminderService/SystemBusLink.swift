import Glibc
import DBusKit
import SystemdKit

/// The connection to the system bus, followed across the bus going away and
/// coming back (a restart of dbus, an upgrade): logind's lock and sleep
/// hints are not lost for the rest of the session.
///
/// While there is no connection the bus's socket folder is watched with
/// inotify — no timer, no polling — and a connection is tried when the
/// socket appears; a bus reached by another kind of address is not followed.
final class SystemBusLink {
    private let loop: EventLoop
    private let log: Log
    /// The connection of the moment.
    private(set) var connection: Connection?
    /// Called with each new connection after the first.
    var onConnected: ((Connection) -> Void)?
    /// Called when the connection is lost.
    var onLost: (() -> Void)?
    private var waiter: SocketWaiter?

    init(loop: EventLoop, log: Log) {
        self.loop = loop
        self.log = log
    }

    /// Connects now; returns why not when there is no system bus. Either
    /// way the bus is followed from here on.
    func start() -> String? {
        do {
            try connect()
            return nil
        } catch {
            watchForSocket()
            return error.message.isEmpty ? error.name : error.message
        }
    }

    private func connect() throws(DBusError) {
        let system = try Connection(bus: .system, loop: loop)
        system.onDisconnect = { [unowned self] in self.lost() }
        connection = system
    }

    private func lost() {
        connection = nil
        log.warning("Lost the system bus; screen-lock and sleep hints from logind stop until it is back.")
        onLost?()
        watchForSocket()
    }

    /// The path of the system bus socket, when its address is a unix path
    /// (`DBUS_SYSTEM_BUS_ADDRESS`, else libdbus's default).
    static func socketPath(address: String?) -> String? {
        let text = address ?? "unix:path=/var/run/dbus/system_bus_socket"
        for entry in text.split(separator: ";") where entry.hasPrefix("unix:") {
            for pair in entry.dropFirst(5).split(separator: ",") where pair.hasPrefix("path=") {
                return unescape(pair.dropFirst(5))
            }
        }
        return nil
    }

    /// A D-Bus address value with its `%xx` escapes undone.
    private static func unescape(_ value: Substring) -> String? {
        var bytes: [UInt8] = []
        var i = value.utf8.startIndex
        let utf8 = value.utf8
        while i < utf8.endIndex {
            if utf8[i] == UInt8(ascii: "%") {
                let hex = utf8.index(i, offsetBy: 3, limitedBy: utf8.endIndex).map { String(decoding: utf8[utf8.index(after: i)..<$0], as: UTF8.self) }
                guard let hex, let byte = UInt8(hex, radix: 16) else { return nil }
                bytes.append(byte)
                i = utf8.index(i, offsetBy: 3)
            } else {
                bytes.append(utf8[i])
                i = utf8.index(after: i)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private func watchForSocket() {
        if waiter == nil {
            let address = getenv("DBUS_SYSTEM_BUS_ADDRESS").map { String(cString: $0) }
            guard let path = Self.socketPath(address: address) else { return }
            waiter = SocketWaiter(loop: loop, path: path) { [unowned self] in self.tryConnect() }
        }
        // A folder that does not exist (no system bus on this machine at all) is not waited for.
        waiter?.start()
    }

    /// Connects when the socket appeared; whether it did.
    private func tryConnect() -> Bool {
        guard connection == nil else { return true }
        do {
            try connect()
        } catch {
            log.debug("The system bus is not back yet: \(error)")
            return false
        }
        log.info("The system bus is back; watching logind again.")
        if let connection { onConnected?(connection) }
        return true
    }
}
