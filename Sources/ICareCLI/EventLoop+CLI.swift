import SystemdKit
import Localization

/// The event loop as every `icarectl` command uses it: its failures are
/// the CLI's sentences, written once for the one-shot commands and the
/// live ones (status --follow, monitor, watch).
extension EventLoop {
    /// A new loop, or why there is none.
    static func forCLI() throws(CLIError) -> EventLoop {
        do { return try EventLoop() } catch { throw .failure(tr("Could not create the event loop: %s.", error)) }
    }

    /// Runs `setUp` (adding sources), mapping its failure to the CLI's sentence.
    func setUpForCLI(_ setUp: () throws -> Void) throws(CLIError) {
        do { try setUp() } catch { throw .failure(tr("Could not set up the event loop: %s.", String(describing: error))) }
    }

    /// Runs until something calls `exit`.
    func runForCLI() throws(CLIError) {
        do { _ = try run() } catch { throw .failure(tr("The event loop failed: %s.", error)) }
    }
}
