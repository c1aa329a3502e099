import Foundation

extension GSConnectRig {
    /// Where GSConnect's service runs when it is not the host's own in a namespace the rig makes: e.g. inside a
    /// `DesktopRoot` started with `loopbackOnly` (`inside(_:session:)`). There the rig starts Xvfb and the
    /// service through `launcher`, with `environment` (a session's: its buses, its dconf, activated by its bus,
    /// and its HOME and XDG folders), and the phone (the host's python3) in the network and PID namespaces of
    /// `namespacePID`. Its gsettings run through `launcher` too, with the place's own schemas.
    public struct Elsewhere: Sendable {
        /// A process whose network namespace the service and the phone share; it must have `lo` only (checked).
        public var namespacePID: Int32
        /// The command that runs a program there (e.g. `DesktopRoot.asUser`).
        public var launcher: [String]
        /// The extension's folder there (`service/daemon.js` in it).
        public var extensionFolder: String
        /// The environment of everything the rig runs there, PATH included.
        public var environment: [String: String]
        /// The rig's folder (the phone's state, the logs), seen at the same path there.
        public var directory: URL
        /// Who the service runs as there (the rig's folder is given to this user), nil to leave it root's.
        public var owner: UInt32?

        public init(namespacePID: Int32, launcher: [String], extensionFolder: String, environment: [String: String],
                    directory: URL, owner: UInt32?) {
            self.namespacePID = namespacePID
            self.launcher = launcher
            self.extensionFolder = extensionFolder
            self.environment = environment
            self.directory = directory
            self.owner = owner
        }

        /// The root's GSConnect as the root's user in `session` (its buses; its dconf, which the session's bus
        /// activates with the session's XDG_CONFIG_HOME), the root started with `loopbackOnly`.
        public static func inside(_ root: DesktopRoot, session: DesktopRootSession, folder: String = "gsconnect") throws -> Self {
            guard root.loopbackOnly else { throw HarnessError("GSConnect broadcasts: start the \(root.release) root with loopbackOnly") }
            let daemon = GSConnectRig.extensionFolder + "/service/daemon.js"
            guard (try? root.run(["test", "-f", daemon], environment: [:]).status) == 0 else {
                throw HarnessError("GSConnect is not installed in the \(root.release) root (\(daemon); the gnome-shell-extension-gsconnect package, scripts/desktop-root)")
            }
            let environment = root.inside(session.environment.merging(["GSETTINGS_BACKEND": "dconf"]) { $1 })
            return Self(namespacePID: root.pid, launcher: root.asUser, extensionFolder: GSConnectRig.extensionFolder,
                        environment: environment.merging(["PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"]) { $1 },
                        directory: root.work.appendingPathComponent(folder), owner: DesktopRoot.uid)
        }
    }

    /// The version of the GSConnect installed in `root` (`version` in the extension's metadata.json: 62 in
    /// trixie, 74 in forky).
    public static func version(in root: DesktopRoot) throws -> Int {
        let r = try root.run(["cat", extensionFolder + "/metadata.json"], environment: [:])
        guard r.status == 0, let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any],
              let version = json["version"] as? Int else {
            throw HarnessError("no version in \(extensionFolder)/metadata.json in the \(root.release) root: \(r)")
        }
        return version
    }
}

/// A bus name held by the host's python3-gi in a network namespace (a root's session bus, by address), as a desktop's
/// own program holds it: `org.gnome.Shell`, so that icared sees GNOME in use (it reads GSConnect's keys from the
/// dconf database only then). Nothing is exported under it.
public final class HeldBusName: @unchecked Sendable {
    private let lines: NamespacedLines
    public let name: String

    static let script = """
    import os, sys
    from gi.repository import Gio, GLib
    flags = Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION
    bus = Gio.DBusConnection.new_for_address_sync(os.environ["DBUS_SESSION_BUS_ADDRESS"], flags, None, None)
    loop = GLib.MainLoop()
    def acquired(*_):
        print("ready", flush=True)
    def lost(*_):
        print("lost", flush=True)
        loop.quit()
    Gio.bus_own_name_on_connection(bus, sys.argv[1], Gio.BusNameOwnerFlags.NONE, acquired, lost)
    GLib.io_add_watch(GLib.IOChannel.unix_new(0), GLib.PRIORITY_DEFAULT, GLib.IO_IN | GLib.IO_HUP, lambda *_: loop.quit())
    loop.run()
    """

    public init(_ name: String, busAddress: String, networkOf pid: Int32?, errors: URL) throws {
        self.name = name
        lines = try NamespacedLines(["/usr/bin/python3", "-c", Self.script, name], networkOf: pid,
                                    environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "DBUS_SESSION_BUS_ADDRESS": busAddress],
                                    errors: errors)
        guard waitUntil(timeout: 10, interval: 0.02, { self.lines.all.contains { $0.text == "ready" || $0.text == "lost" } || !self.lines.isRunning }),
              lines.all.contains(where: { $0.text == "ready" }) else {
            let why = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
            lines.stop()
            throw HarnessError("could not own \(name) on \(busAddress): \(lines.all.map(\.text)) \(why)")
        }
    }

    public func stop() { lines.stop() }
}
