import Testing
import Foundation
import TestSupport

/// `make uninstall` for real (no DESTDIR) leaves no empty folder behind:
/// everything install created goes, the person's own files and the folders
/// holding them stay.
extension InstallTests {
    @Test func uninstallFromAHomePrefixLeavesNoEmptyFolder() throws {
        let tmp = try InstallTempDir()
        let home = tmp.path + "/home/alice"
        // History but no settings yet: ~/.config is made by install (autostart) only.
        let history = home + "/.local/state/icare/history/2026-01-01"
        for file in [history] {
            try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try "keep me\n".write(toFile: file, atomically: true, encoding: .utf8)
        }
        // A person's session has its runtime folder (logind makes /run/user/UID). Without one, GLib
        // falls back to ~/.cache and makes it, empty, when a program asks for it: appstreamcli, which
        // install runs, does so through GVfs's GIO module where GVfs is installed (GNOME brings it).
        // The folder is apart from `tmp`, all of whose folders must keep something.
        let runtime = try InstallTempDir()
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: runtime.path)
        let vars = ["PREFIX=\(home)/.local", "HOME=\(home)", "XDG_CONFIG_HOME=", "XDG_RUNTIME_DIR=\(runtime.path)"]
        try make(["install"] + vars)
        #expect(FileManager.default.fileExists(atPath: home + "/.config/autostart/icared-autostart.desktop"))
        try make(["uninstall"] + vars)
        #expect(contents(of: home).sorted() == [
            "/.local/", "/.local/state/", "/.local/state/icare/", "/.local/state/icare/history/",
            "/.local/state/icare/history/2026-01-01",
        ], "uninstall must leave only the person's files and their folders")
        #expect(emptyFolders(below: tmp.path).isEmpty, "empty folders left: \(emptyFolders(below: tmp.path))")
    }

    @Test func uninstallFromAnotherPrefixEmptiesIt() throws {
        let tmp = try InstallTempDir()
        let prefix = tmp.path + "/opt/icare"
        try make(["install", "PREFIX=\(prefix)"])
        #expect(FileManager.default.fileExists(atPath: prefix + "/etc/xdg/autostart/icared-autostart.desktop"))
        try make(["uninstall", "PREFIX=\(prefix)"])
        #expect(contents(of: prefix).isEmpty, "uninstall left \(contents(of: prefix))")
    }

    /// Folders below `root` (and `root` itself) with nothing in them.
    func emptyFolders(below root: String) -> [String] {
        ([""] + contents(of: root).filter { $0.hasSuffix("/") }).filter {
            ((try? FileManager.default.contentsOfDirectory(atPath: root + $0)) ?? []).isEmpty
        }
    }
}
