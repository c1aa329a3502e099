import CSystemd

/// The service manager's notification protocol (sd_notify). Safe to call
/// when no manager listens: then it does nothing.
public enum SystemdNotify {
    /// Sends raw `KEY=value` lines.
    @discardableResult
    public static func send(_ state: String) -> Bool { sd_notify(0, state) > 0 }

    /// READY=1: start-up is finished (the bus name is owned).
    public static func ready(status: String) { send("READY=1\nSTATUS=\(status)") }
    /// STATUS=: one human line for `systemctl status`.
    public static func status(_ text: String) { send("STATUS=\(text)") }
    /// STOPPING=1: shutting down.
    public static func stopping() { send("STOPPING=1\nSTATUS=Stopping") }
}
