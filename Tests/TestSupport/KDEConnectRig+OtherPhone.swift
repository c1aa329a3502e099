import Foundation

extension KDEConnectRig {
    /// One more phone paired with the rig's kdeconnectd: its own fake phone (its own id, name and
    /// certificate) in the rig's namespace, as a person with a phone and a tablet has them.
    public final class OtherPhone: @unchecked Sendable {
        public let deviceId: String
        public let name: String
        let phone: FakePhone
        unowned let rig: KDEConnectRig

        init(rig: KDEConnectRig, name: String, runCommand: Bool) throws {
            self.rig = rig
            self.name = name
            deviceId = UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
            let state = rig.directory.appendingPathComponent("phone-\(deviceId)")
            phone = try FakePhone(launcher: rig.enter, deviceId: deviceId, name: name, protocolVersion: rig.protocolVersion, state: state,
                                  errors: state.path + ".log", arguments: runCommand ? [] : ["--no-run-command"],
                                  environment: rig.baseEnvironment, timeout: rig.timeout) { [weak rig] in rig?.logTail() ?? "" }
        }

        var devicePath: String { "/modules/kdeconnect/devices/\(deviceId)" }

        /// Connects and pairs as `KDEConnectRig.pair` does for the first phone: the phone asks, the desktop
        /// accepts over the bus, and the rig waits until kdeconnectd trusts it and its ping plugin is loaded.
        func pair() throws {
            try phone.command("connect", timeout: rig.timeout)
            try rig.wait("kdeconnectd to list \(name)") { try self.property("isReachable") == "b true" }
            try phone.command("pair", timeout: rig.timeout)
            try rig.wait("kdeconnectd to see \(name)'s pairing request") { try self.flag("hasPairingRequests", or: "isPairRequestedByPeer") }
            try rig.call(devicePath, "org.kde.kdeconnect.device", "acceptPairing")
            try rig.wait("kdeconnectd to trust \(name)") { try self.flag("isTrusted", or: "isPaired") }
            try rig.wait("kdeconnectd to load the ping plugin for \(name)") {
                let r = try self.rig.busctl(["call", "org.kde.kdeconnect", self.devicePath, "org.kde.kdeconnect.device", "loadedPlugins"])
                return r.status == 0 && r.stdout.contains("\"kdeconnect_ping\"")
            }
        }

        /// The phone unpairs; waits until kdeconnectd no longer trusts it.
        public func unpair() throws {
            try phone.command("unpair", timeout: rig.timeout)
            try rig.wait("kdeconnectd to stop trusting \(name)") { try !self.flag("isTrusted", or: "isPaired") }
        }

        public func packets(type: String) -> [[String: Any]] { phone.packets(type: type) }

        @discardableResult
        public func waitForPackets(type: String, count: Int, timeout: TimeInterval) throws -> [[String: Any]] {
            try phone.waitForPackets(type: type, count: count, timeout: timeout)
        }

        public func send(_ type: String, body: String) throws { try phone.command("send \(type) \(body)", timeout: rig.timeout) }

        func stop() { phone.stop() }

        private func property(_ name: String) throws -> String? {
            let r = try rig.busctl(["get-property", "org.kde.kdeconnect", devicePath, "org.kde.kdeconnect.device", name])
            return r.status == 0 ? r.stdout.trimmingCharacters(in: .whitespacesAndNewlines) : nil
        }

        private func flag(_ name: String, or newer: String) throws -> Bool {
            if let value = try property(name) { return value == "b true" }
            return try property(newer) == "b true"
        }
    }

    /// Starts one more fake phone, connects it and pairs it; the rig stops it with the rest.
    public func addPhone(name: String, runCommand: Bool = true) throws -> OtherPhone {
        let other = try OtherPhone(rig: self, name: name, runCommand: runCommand)
        otherPhones.append(other)
        try other.pair()
        return other
    }
}
