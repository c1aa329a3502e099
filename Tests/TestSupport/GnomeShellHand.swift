import Foundation

/// A person's pointer and keyboard on a headless GNOME Shell, and its eyes
/// (screenshots), through `GnomeRemoteDesktop`'s client. Motion is relative only, so a
/// move to a point pushes the pointer into the bottom-right corner first (not
/// the top-left one, GNOME's hot corner). One command a line on stdin; each
/// answers `ok` after a round trip to the shell, so it has been handled.
public final class GnomeShellHand: @unchecked Sendable {
    private let client: LineClient
    public static let escape = 0xff1b, left = 0x110, right = 0x111

    public init(environment: [String: String]) throws {
        client = try LineClient(script: GnomeRemoteDesktop.script, name: "the remote-desktop client",
                                environment: ProcessInfo.processInfo.environment.merging(environment) { $1 }, timeout: 15)
    }

    /// Moves the pointer to (x, y) of the 1280×800 screen: into the bottom-right corner, then back.
    public func move(x: Int, y: Int) throws {
        try send("move 5000 5000")
        try send("move \(x - HeadlessGnomeShell.width + 1) \(y - HeadlessGnomeShell.height + 1)")
    }

    /// A small motion and back: user activity, which lets waiting banners time out.
    public func wiggle() throws {
        try send("move 3 3")
        try send("move -3 -3")
    }

    /// Moves to (x, y), rests there a moment (as a hand does, and the shell shows hover), then clicks `button`.
    public func click(x: Int, y: Int, button: Int = GnomeShellHand.left) throws {
        try move(x: x, y: y)
        Thread.sleep(forTimeInterval: 0.3)
        try send("button \(button) 1")
        try send("button \(button) 0")
    }

    /// Presses and releases a key (an X keysym, e.g. `escape`).
    public func key(_ keysym: Int) throws {
        try send("key \(keysym) 1")
        try send("key \(keysym) 0")
    }

    /// The whole screen as a PNG at `path`.
    public func screenshot(_ path: String) throws { try send("shot " + path) }

    private func send(_ command: String) throws { try client.send(command) }

    public func stop() { client.stop() }
}
