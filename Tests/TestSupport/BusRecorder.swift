import Foundation

/// Every message on a test's own bus, seen by `busctl monitor` (the bus's monitor interface: the test's
/// dbus-daemon lets it see all), and what one program did there in docs/privacy.md's words: the names it
/// calls, the names it watches (its match rules' senders, the owners it follows or asks about) and the
/// names it owns. Its connections are told by their process ids, asked while they are connected.
public final class BusRecorder: @unchecked Sendable {
    public let address: String
    private let output: Collected

    public init(address: String) throws {
        self.address = address
        output = try Collected(["busctl", "--address=\(address)", "monitor", "--json=short"], environment: [:])
        // busctl becomes a monitor asynchronously: make traffic until it shows.
        let seen = try waitUntil(timeout: 10, interval: 0.05) {
            _ = try Subprocess.run(["busctl", "--address=\(address)", "call", "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                    "org.freedesktop.DBus", "GetId"])
            return !messages.isEmpty
        }
        guard seen else { throw HarnessError("busctl monitor saw nothing on \(address)") }
        // The names owned before the monitor began (no NameOwnerChanged for them will come): each one's owner.
        for name in try Self.call(address, "ListNames").filter({ !$0.hasPrefix(":") && $0 != "org.freedesktop.DBus" }) {
            if let owner = try Self.call(address, "GetNameOwner", "s", name).first { ownedAtStart[owner, default: []].insert(name) }
        }
    }

    /// Names owned when the recorder began, by their owners' unique names.
    private var ownedAtStart: [String: Set<String>] = [:]

    /// A call to the bus itself; the strings of its reply (none when it fails).
    static func call(_ address: String, _ method: String, _ arguments: String...) throws -> [String] {
        let r = try Subprocess.run(["busctl", "--address=\(address)", "--json=short", "call", "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                    "org.freedesktop.DBus", method] + arguments)
        guard r.status == 0, let reply = try? JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any],
              let data = reply["data"] as? [Any] else { return [] }
        return data.flatMap { ($0 as? [String]) ?? ($0 as? String).map { [$0] } ?? [] }
    }

    public var messages: [[String: Any]] {
        output.text.split(separator: "\n").compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
    }

    /// The unique names of the connections of `pids` among those that sent a call so far and are still connected.
    public func connections(of pids: Set<Int32>) throws -> Set<String> {
        let senders = Set(messages.filter { $0["type"] as? String == "method_call" }.compactMap { $0["sender"] as? String })
        return try Set(senders.filter { sender in
            let r = try Subprocess.run(["busctl", "--address=\(address)", "call", "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                        "org.freedesktop.DBus", "GetConnectionUnixProcessID", "s", sender])
            return r.status == 0 && Int32(r.stdout.split(separator: " ").last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "")
                .map(pids.contains) == true
        })
    }

    /// What `uniques` did, as `kind` ("session bus", "system bus") items of `record`.
    public func record(_ uniques: Set<String>, as kind: String, into record: inout PrivacyRecord) {
        var owned = ownedAtStart                  // unique name → the names it owns
        var known = Set<String>()                 // the names the program watches
        for message in messages {
            let type = message["type"] as? String, member = message["member"] as? String
            let data = (message["payload"] as? [String: Any])?["data"] as? [Any] ?? []
            if type == "signal", member == "NameOwnerChanged", data.count == 3, let name = data[0] as? String,
               let old = data[1] as? String, let new = data[2] as? String, !name.hasPrefix(":") {
                owned[old]?.remove(name)
                if !new.isEmpty { owned[new, default: []].insert(name) }
            }
            guard type == "method_call", let sender = message["sender"] as? String, uniques.contains(sender),
                  let destination = message["destination"] as? String else { continue }
            let first = data.first as? String
            guard destination == "org.freedesktop.DBus" else {
                // A call to an owner's unique name is a call to the name the program followed to it.
                let names = destination.hasPrefix(":") ? owned[destination] ?? [] : [destination]
                let followed = names.intersection(known)
                for name in followed.isEmpty ? (names.isEmpty ? ["(a program with no name)"] : names) : followed {
                    record.add(kind, name, "calls")
                }
                continue
            }
            switch member {
            case "AddMatch":
                let rule = Self.keys(first ?? "")
                for (name, verb) in Self.watched(by: rule) {
                    record.add(kind, name, verb)
                    known.insert(name)
                }
                // What dconf's writer announces under a folder: the keys the program follows.
                if rule["sender"] == "ca.desrt.dconf", let folder = rule["arg0path"] { record.add("dconf", folder, "watches") }
            case "GetNameOwner", "NameHasOwner":
                if let name = first {
                    record.add(kind, name, "watches")
                    known.insert(name)
                }
            case "RequestName":
                if let name = first { record.add(kind, name, "owns") }
            case "StartServiceByName":
                if let name = first { record.add(kind, name, "calls") }
            default:
                record.add(kind, "org.freedesktop.DBus", "calls")
            }
        }
    }

    /// The names a match rule watches: its sender, or the name whose owner it follows (arg0 of the bus's
    /// NameOwnerChanged); a rule with no sender watches whoever sends its interface: `(any) INTERFACE`.
    static func watched(by keys: [String: String]) -> [(String, String)] {
        if keys["sender"] == "org.freedesktop.DBus", keys["member"] == "NameOwnerChanged", let name = keys["arg0"] { return [(name, "watches")] }
        if let sender = keys["sender"] { return [(sender, "watches")] }
        return [("(any) " + (keys["interface"] ?? "signal"), "watches")]
    }

    /// A match rule's keys and values.
    static func keys(_ rule: String) -> [String: String] {
        var keys: [String: String] = [:]
        for m in (try? NSRegularExpression(pattern: #"([a-z0-9]+)='([^']*)'"#))?.matches(in: rule, range: NSRange(rule.startIndex..., in: rule)) ?? [] {
            guard let k = Range(m.range(at: 1), in: rule), let v = Range(m.range(at: 2), in: rule) else { continue }
            keys[String(rule[k])] = String(rule[v])
        }
        return keys
    }

    public func stop() { output.stop() }

    deinit { stop() }
}
