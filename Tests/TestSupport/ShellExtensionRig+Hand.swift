import Foundation

/// The pointer, keyboard, eyes and `Eval` of `ShellExtensionRig`: `GnomeRemoteDesktop`'s client, run on the
/// host against the root's session bus (the remote desktop has no caller check on 48 and 50; clicks with
/// evdev's BTN_LEFT 272).
final class ShellExtensionHand: @unchecked Sendable {
    private let client: LineClient
    private let lock = NSLock()

    init(environment: [String: String]) throws {
        client = try LineClient(script: GnomeRemoteDesktop.script, name: "the Shell's remote-desktop client", environment: environment, timeout: 30)
    }

    /// Sends `command ARGUMENT` and returns what follows `ok `.
    func ask(_ command: String, _ argument: String) throws -> String {
        try lock.withLock {
            guard let line = try client.ask(command + " " + argument) else {
                throw HarnessError("no answer to \(command) from the Shell's client")
            }
            if line == "ok" { return "" }
            if line.hasPrefix("ok ") { return String(line.dropFirst(3)) }
            throw HarnessError("\(command) \(argument.prefix(200)): \(line)")
        }
    }

    /// The whole screen as the Shell draws it, kept as `folder/shots/N.png` (see `keep`).
    func screenshot(_ n: Int, in folder: URL) throws -> Screenshot {
        let png = folder.appendingPathComponent("shots/\(n).png").path
        _ = try ask("shot", png)
        let ppm = png + ".ppm"
        let r = try Subprocess.run(["convert", png, "ppm:" + ppm], environment: DesktopRoot.hostEnvironment)
        guard r.status == 0 else { throw HarnessError("convert \(png): \(r)") }
        defer { try? FileManager.default.removeItem(atPath: ppm) }
        return try Screenshot(file: ppm)
    }

    /// Copies screenshot `n` to ICARE_SHOTS/RELEASE-NAME.png, where a person can look at it, when
    /// ICARE_SHOTS names a folder.
    static func keep(_ n: Int, in folder: URL, as name: String, release: DesktopRoot.Release) {
        guard let dir = ProcessInfo.processInfo.environment["ICARE_SHOTS"], !dir.isEmpty else { return }
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let from = folder.appendingPathComponent("shots/\(n).png").path, to = "\(dir)/\(release)-\(name).png"
        try? FileManager.default.removeItem(atPath: to)
        try? FileManager.default.copyItem(atPath: from, toPath: to)
    }

    func stop() { client.stop() }
}
