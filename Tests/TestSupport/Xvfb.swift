import Foundation

/// Xvfb on a display it chooses (`-displayfd`, so parallel tests never race for a number): the one way
/// the rigs start an X server of their own.
public struct Xvfb: @unchecked Sendable {
    public let process: Process
    /// `:N`.
    public let display: String

    /// Starts Xvfb with one `width`×`height` screen; its errors go to `errors` (nil: nowhere). Throws, with
    /// Xvfb ended, when it reports no display.
    public init(width: Int, height: Int, errors: FileHandle? = nil) throws {
        let out = Pipe()
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try Subprocess.which("Xvfb"))
        p.arguments = ["-displayfd", "1", "-nolisten", "tcp", "-screen", "0", "\(width)x\(height)x24"]
        p.standardInput = FileHandle.nullDevice
        p.standardOutput = out
        p.standardError = errors ?? FileHandle.nullDevice
        try Subprocess.launch(p)
        guard let number = Subprocess.firstLine(of: out) else {
            Subprocess.kill9(p)
            throw HarnessError("Xvfb did not report its display")
        }
        process = p
        display = ":" + number
    }
}
