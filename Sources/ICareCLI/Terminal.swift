import Glibc
import Localization

/// The controlling terminal for the full-screen view: keys without echo,
/// the alternate screen, a hidden cursor, all undone by `leave()` (idempotent,
/// called on every way out).
final class Terminal {
    let input: Int32
    let output: Output
    private var saved: termios?

    init(input: Int32 = 0, output: Output = .standard) {
        self.input = input
        self.output = output
    }

    deinit { leave() }

    /// Whether both ends are terminals.
    var isInteractive: Bool { isatty(input) == 1 && output.isTerminal }

    /// Keys one at a time without echo (tcsetattr); Ctrl-C and Ctrl-Z keep
    /// working as signals. Then the alternate screen with the cursor hidden.
    func enter() throws(CLIError) {
        var t = termios()
        guard tcgetattr(input, &t) == 0 else { throw .failure(tr("Could not set up the terminal: %s.", String(cString: strerror(errno)))) }
        if saved == nil { saved = t }
        t.c_lflag &= ~tcflag_t(ICANON | ECHO | IEXTEN)
        t.c_iflag &= ~tcflag_t(IXON | ICRNL)
        withUnsafeMutableBytes(of: &t.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(input, TCSANOW, &t) == 0 else { throw .failure(tr("Could not set up the terminal: %s.", String(cString: strerror(errno)))) }
        output.write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[H\u{1B}[2J")
    }

    /// Restores the saved settings, shows the cursor, leaves the alternate screen.
    func leave() {
        guard var t = saved else { return }
        saved = nil
        output.write("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l")
        _ = tcsetattr(input, TCSANOW, &t)
    }

    /// Rows and columns (TIOCGWINSZ), 24×80 when unknown.
    var size: (rows: Int, columns: Int) {
        var ws = winsize()
        guard ioctl(output.fd, UInt(TIOCGWINSZ), &ws) == 0, ws.ws_row > 0, ws.ws_col > 0 else { return (24, 80) }
        return (Int(ws.ws_row), Int(ws.ws_col))
    }

    /// Draws a whole frame in one write, without clearing first (no flicker):
    /// cursor home, each line overwritten and its rest erased, the screen below erased.
    func draw(_ lines: [String]) {
        var frame = "\u{1B}[H"
        for (i, line) in lines.enumerated() {
            frame += line + "\u{1B}[K" + (i < lines.count - 1 ? "\r\n" : "")
        }
        output.write(frame + "\u{1B}[J")
    }
}
