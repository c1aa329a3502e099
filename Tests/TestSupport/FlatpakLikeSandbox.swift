import Foundation

/// A sandbox icared takes for the Flatpak's, for the service's side of what the Flatpak's app tells it
/// without a Flatpak build (FlatpakTests run the real one): bubblewrap over a new root that holds the
/// machine's folders (read-only), /tmp (the test's home and bus) and a `/.flatpak-info`, the
/// file flatpak puts in every sandbox it starts (DesktopWatch's `Sandbox.isFlatpak`). The new root is a
/// tmpfs of bubblewrap's own, so nothing is made in the machine's `/`.
public enum FlatpakLikeSandbox {
    /// The launcher for `ServiceHarness.launcher` (with `bare`); its `/.flatpak-info` is written in `home`.
    public static func launcher(home: URL) throws -> [String] {
        let info = home.appendingPathComponent("flatpak-info").path
        try "[Application]\nname=org.icare.Reminder\n".write(toFile: info, atomically: true, encoding: .utf8)
        var args = [try Subprocess.which("bwrap"), "--die-with-parent", "--tmpfs", "/"]
        // The machine's folders as they are (read-only; its symbolic links as links), /tmp writable.
        for top in try FileManager.default.contentsOfDirectory(atPath: "/").sorted() where !["proc", "dev", "tmp"].contains(top) {
            let path = "/" + top
            var isFolder: ObjCBool = false
            if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: path) {
                args += ["--symlink", target, path]
            } else if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
                args += ["--ro-bind", path, path]
            }
        }
        args += ["--bind", "/tmp", "/tmp", "--proc", "/proc", "--dev", "/dev"]
        if !home.path.hasPrefix("/tmp/") { args += ["--bind", home.path, home.path] }
        return args + ["--ro-bind", info, "/.flatpak-info", "--chdir", "/"]
    }
}
