import Testing
import Foundation
import TestSupport

/// `make install` / `make uninstall`, the systemd unit and D-Bus activation,
/// checked on the installed files. The binaries installed are those of this
/// test build (BINSRC=…), so the test never starts a release build.
@Suite struct InstallTests {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Every file the install step writes: path below the prefix root, mode.
    static func expectedFiles(prefix: String, autostart: String, unitDir: String) -> [String: Int] {
        var files = [
            "\(prefix)/bin/icared": 0o755,
            "\(prefix)/bin/icarectl": 0o755,
            "\(prefix)/bin/icare": 0o755,
            "\(prefix)/share/dbus-1/services/org.icare.Reminder.service": 0o644,
            "\(prefix)/share/dbus-1/services/org.icare.Reminder.Window.service": 0o644,
            "\(prefix)/share/dbus-1/interfaces/org.icare.Reminder.xml": 0o644,
            "\(unitDir)/icared.service": 0o644,
            "\(prefix)/share/applications/org.icare.Reminder.desktop": 0o644,
            "\(prefix)/share/icons/hicolor/scalable/apps/org.icare.Reminder.svg": 0o644,
            "\(prefix)/share/icons/hicolor/symbolic/apps/org.icare.Reminder-symbolic.svg": 0o644,
            "\(prefix)/share/metainfo/org.icare.Reminder.metainfo.xml": 0o644,
            "\(autostart)/icared-autostart.desktop": 0o644,
            "\(prefix)/share/man/man1/icarectl.1": 0o644,
            "\(prefix)/share/man/man1/icare.1": 0o644,
            "\(prefix)/share/man/man8/icared.8": 0o644,
            "\(prefix)/share/bash-completion/completions/icarectl": 0o644,
            "\(prefix)/share/zsh/site-functions/_icarectl": 0o644,
            "\(prefix)/share/fish/vendor_completions.d/icarectl.fish": 0o644,
        ]
        // Each language of po/LINGUAS: its catalog and its icarectl(1).
        for language in Catalogs.languages {
            files["\(prefix)/share/locale/\(language)/LC_MESSAGES/icare.mo"] = 0o644
            files["\(prefix)/share/man/\(language)/man1/icarectl.1"] = 0o644
        }
        // The GNOME Shell extension (gnome-extension/extension.mk), with its own catalogs unless
        // they are in the Shell's /usr/share/locale already.
        let shellExtension = "\(prefix)/share/gnome-shell/extensions/ring@icare.org/"
        for file in ["metadata.json", "extension.js", "indicator.js", "ring.js", "state.js", "texts.js", "stylesheet.css"]
            + (prefix == "/usr" ? [] : Catalogs.languages.map { "locale/\($0)/LC_MESSAGES/icare.mo" }) {
            files[shellExtension + file] = 0o644
        }
        return files
    }

    @Test func packagerInstallIntoDestdirAndUninstallToAnEmptyTree() throws {
        let tmp = try InstallTempDir()
        let dest = tmp.path + "/dest"
        let vars = ["DESTDIR=\(dest)", "PREFIX=/usr"]
        try make(["install"] + vars)
        let expected = Self.expectedFiles(prefix: "/usr", autostart: "/etc/xdg/autostart", unitDir: "/usr/lib/systemd/user")
        try checkTree(root: dest, expected: expected)
        try checkPaths(root: dest, bindir: "/usr/bin", unitDir: "/usr/lib/systemd/user",
                       autostart: "/etc/xdg/autostart", prefix: "/usr")

        try make(["uninstall"] + vars)
        #expect(contents(of: dest).isEmpty, "uninstall left \(contents(of: dest))")
    }

    @Test func personalInstallUsesTheFoldersOfTheHome() throws {
        let tmp = try InstallTempDir()
        let home = tmp.path + "/home/alice"
        let dest = tmp.path + "/stage"
        let prefix = home + "/.local"
        // The person's own files, which uninstall must leave alone.
        let config = dest + home + "/.config/icare/config"
        let history = dest + home + "/.local/state/icare/history/2026-01-01"
        for file in [config, history] {
            try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try "keep me\n".write(toFile: file, atomically: true, encoding: .utf8)
        }
        // What an install from before the id was settled left (org.icare.app): the new install takes it away.
        let share = dest + prefix + "/share"
        for old in ["/applications/org.icare.app.desktop", "/icons/hicolor/scalable/apps/org.icare.app.svg",
                    "/icons/hicolor/symbolic/apps/org.icare.app-symbolic.svg", "/metainfo/org.icare.app.metainfo.xml"] {
            try FileManager.default.createDirectory(atPath: ((share + old) as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true)
            try "old\n".write(toFile: share + old, atomically: true, encoding: .utf8)
        }
        let vars = ["DESTDIR=\(dest)", "PREFIX=\(prefix)", "HOME=\(home)", "XDG_CONFIG_HOME="]
        try make(["install"] + vars)
        #expect(contents(of: dest).filter { $0.contains("org.icare.app") }.isEmpty, "the first id's files stay after make install")
        var expected = Self.expectedFiles(prefix: prefix, autostart: home + "/.config/autostart",
                                          unitDir: prefix + "/share/systemd/user")
        expected[home + "/.config/icare/config"] = -1
        expected[home + "/.local/state/icare/history/2026-01-01"] = -1
        try checkTree(root: dest, expected: expected)
        try checkPaths(root: dest, bindir: prefix + "/bin", unitDir: prefix + "/share/systemd/user",
                       autostart: home + "/.config/autostart", prefix: prefix)

        try make(["uninstall"] + vars)
        let left = contents(of: dest).filter { !$0.hasSuffix("/") }
        #expect(left.sorted() == [home + "/.config/icare/config", home + "/.local/state/icare/history/2026-01-01"].sorted(),
                "uninstall must remove exactly what install wrote; left \(left)")
        #expect(try String(contentsOfFile: config, encoding: .utf8) == "keep me\n")
    }

    @Test func installedUnitVerifiesCleanAndItsExposureDoesNotGetWorse() throws {
        let tmp = try InstallTempDir()
        let prefix = tmp.path + "/prefix"
        try make(["install", "PREFIX=\(prefix)"])
        let unit = prefix + "/lib/systemd/user/icared.service"
        let analyze = try Subprocess.which("systemd-analyze")
        _ = try Subprocess.which("man")
        // --user needs a runtime directory even offline; MANPATH lets verify
        // find the installed man pages named in Documentation=.
        let runtime = tmp.path + "/runtime"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let env = ["XDG_RUNTIME_DIR": runtime, "MANPATH": prefix + "/share/man"]

        // verify loads every unit on the unit path, and other packages' units
        // can clash among themselves: mako-notifier and sway-notification-center
        // both ship a user service with BusName=org.freedesktop.Notifications,
        // and verify then fails ("Two services allocated for the same bus
        // name") although icared.service is fine. So the unit path holds only
        // our unit's folder and systemd's own targets (linked from the
        // system's user unit folders), which is all icared.service names.
        let targets = tmp.path + "/targets"
        try Self.linkSystemTargets(into: targets, analyze: analyze, environment: env)
        var verifyEnv = env
        verifyEnv["SYSTEMD_UNIT_PATH"] = prefix + "/lib/systemd/user:" + targets
        let verify = try Subprocess.run([analyze, "--user", "verify", unit], environment: verifyEnv, timeout: 60)
        #expect(verify.status == 0 && verify.stdout.isEmpty && verify.stderr.isEmpty,
                "systemd-analyze verify is not clean: \(verify)")

        let security = try Subprocess.run([analyze, "security", "--offline=true", "--user", unit], environment: env, timeout: 60)
        let score = Self.exposure(in: security.stdout)
        let recordedText = try String(contentsOf: Self.repo.appendingPathComponent("systemd/EXPOSURE"), encoding: .utf8)
        let recorded = Double(recordedText.trimmingCharacters(in: .whitespacesAndNewlines))
        print("icared.service exposure (systemd-analyze security --offline=true --user): \(score.map { String($0) } ?? "?"), recorded \(recordedText.trimmingCharacters(in: .whitespacesAndNewlines))")
        #expect(score != nil, "no overall exposure level in: \(security)")
        #expect(recorded != nil, "systemd/EXPOSURE must hold one number")
        if let score, let recorded {
            #expect(score <= recorded, "the unit's exposure rose from \(recorded) to \(score):\n\(security.stdout)")
        }
    }

    /// Links every `*.target` from the user unit folders systemd searches
    /// (`systemd-analyze --user unit-paths`; the first folder holding a name wins).
    static func linkSystemTargets(into folder: String, analyze: String, environment: [String: String]) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let paths = try Subprocess.run([analyze, "--user", "unit-paths"], environment: environment, timeout: 30)
        #expect(paths.status == 0, "systemd-analyze --user unit-paths: \(paths)")
        var linked = 0
        for dir in paths.stdout.split(separator: "\n").map(String.init) {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? [] where name.hasSuffix(".target") {
                let link = folder + "/" + name
                guard (try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == nil else { continue }
                try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: dir + "/" + name)
                linked += 1
            }
        }
        #expect(linked > 0, "no systemd targets found in \(paths.stdout)")
    }

    @Test(.timeLimit(.minutes(1))) func firstCallActivatesTheInstalledService() throws {
        let tmp = try InstallTempDir()
        let prefix = tmp.path + "/prefix"
        try make(["install", "PREFIX=\(prefix)"])
        // The installed programs find their catalogs beside their bin folder.
        let ctl = prefix + "/bin/icarectl"
        let dutch = try Subprocess.run([ctl, "--help"], environment: ["LANG": "nl_NL.UTF-8", "PATH": "/usr/bin:/bin"])
        #expect(dutch.status == 0 && dutch.stdout.contains("\nGebruik: icarectl [COMMAND] [OPTIONS]\n"), "\(dutch)")
        let english = try Subprocess.run([ctl, "--help"], environment: ["LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"])
        #expect(english.status == 0 && english.stdout.contains("\nUsage: icarectl [COMMAND] [OPTIONS]\n"), "\(english)")

        let services = prefix + "/share/dbus-1/services"
        let activation = try String(contentsOfFile: services + "/org.icare.Reminder.service", encoding: .utf8)
        #expect(activation.contains("Exec=\(prefix)/bin/icared\n"))

        let socket = tmp.path + "/bus"
        let address = "unix:path=\(socket)"
        let config = PrivateBus.config(type: "session", listen: address, serviceDirectory: services)
        try config.write(toFile: tmp.path + "/bus.conf", atomically: true, encoding: .utf8)
        // The activated icared inherits this environment: its own home and
        // XDG folders, and no system bus (never the host's logind).
        let home = tmp.path + "/home"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let env = [
            "HOME": home, "XDG_CONFIG_HOME": home + "/.config", "XDG_STATE_HOME": home + "/.local/state",
            "DBUS_SESSION_BUS_ADDRESS": address,
            "DBUS_SYSTEM_BUS_ADDRESS": "unix:path=\(tmp.path)/no-system-bus",
        ]
        let daemon = try Subprocess.start([try Subprocess.which("dbus-daemon"), "--config-file=\(tmp.path)/bus.conf",
                                           "--nofork", "--nopidfile"], environment: env)
        defer { Subprocess.kill9(daemon) }
        let busctl = try Subprocess.which("busctl")
        #expect(waitUntil(timeout: 5) { FileManager.default.fileExists(atPath: socket) }, "dbus-daemon did not listen")

        let owner = { try Subprocess.run([busctl, "--address=\(address)", "call", "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                          "org.freedesktop.DBus", "GetConnectionUnixProcessID", "s", "org.icare.Reminder"]) }
        #expect(try owner().status != 0, "org.icare.Reminder is owned before anyone called it")

        // The first call starts the service (this depends on a working icared).
        let started = Date()
        let version = try Subprocess.run([busctl, "--address=\(address)", "get-property", "org.icare.Reminder",
                                          "/org/icare/Reminder", "org.icare.Reminder", "Version"], timeout: 30)
        print("D-Bus activation to first reply: \(Int(Date().timeIntervalSince(started) * 1000)) ms")
        #expect(version.status == 0 && version.stdout.hasPrefix("s \""), "activation failed: \(version)")

        let pid = try owner()
        #expect(pid.status == 0, "\(pid)")
        if let n = pid.stdout.split(separator: " ").last.flatMap({ Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }) {
            defer { kill(n, SIGKILL) }
            let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(n)/exe")
            #expect(exe == prefix + "/bin/icared", "the bus started \(exe ?? "?"), not the installed icared")
        }
    }

    // MARK: - Helpers

    /// Where this test build put icared and icarectl.
    static func builtBinaries() throws -> String {
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            if FileManager.default.isExecutableFile(atPath: dir.appendingPathComponent("icared").path),
               FileManager.default.isExecutableFile(atPath: dir.appendingPathComponent("icarectl").path) {
                return dir.path
            }
            dir = dir.deletingLastPathComponent()
        }
        throw HarnessError("icared and icarectl are not next to the test binary \(CommandLine.arguments[0]); build them first.")
    }

    /// Runs make in the repository with the test build's binaries.
    func make(_ arguments: [String]) throws {
        let make = try Subprocess.which("make")
        let r = try Subprocess.run([make, "-C", Self.repo.path, "BINSRC=\(try Self.builtBinaries())"] + arguments, timeout: 120)
        guard r.status == 0 else { throw HarnessError("make \(arguments.joined(separator: " ")) failed: \(r)") }
    }

    /// Checks that `root` holds exactly `expected` (mode -1: any), all regular files.
    func checkTree(root: String, expected: [String: Int]) throws {
        let files = contents(of: root).filter { !$0.hasSuffix("/") }
        #expect(Set(files) == Set(expected.keys),
                "unexpected: \(Set(files).subtracting(expected.keys).sorted()), missing: \(Set(expected.keys).subtracting(files).sorted())")
        for (path, mode) in expected where mode >= 0 {
            let attributes = try? FileManager.default.attributesOfItem(atPath: root + path)
            let actual = (attributes?[.posixPermissions] as? NSNumber)?.intValue ?? -1
            #expect(actual == mode, "\(path): mode \(String(actual, radix: 8)), want \(String(mode, radix: 8))")
            #expect(attributes?[.type] as? FileAttributeType == .typeRegular, "\(path) is not a regular file")
        }
    }

    /// Checks the paths written into the installed templates.
    func checkPaths(root: String, bindir: String, unitDir: String, autostart: String, prefix: String) throws {
        func read(_ p: String) throws -> String { try String(contentsOfFile: root + p, encoding: .utf8) }
        let unit = try read(unitDir + "/icared.service")
        #expect(unit.contains("\nExecStart=\(bindir)/icared\n"))
        let service = try read(prefix + "/share/dbus-1/services/org.icare.Reminder.service")
        #expect(service.contains("\nExec=\(bindir)/icared\n"))
        #expect(service.contains("\nName=org.icare.Reminder\n"))
        #expect(service.contains("\nSystemdService=icared.service\n"))
        let desktop = try read(prefix + "/share/applications/org.icare.Reminder.desktop")
        #expect(desktop.contains("\nExec=\(bindir)/icare\n"))
        #expect(desktop.contains("\nTerminal=false\n"))
        let auto = try read(autostart + "/icared-autostart.desktop")
        #expect(auto.contains("\nTryExec=\(bindir)/icared\n"))
        // The translations merged in by msgfmt --desktop.
        #expect(desktop.contains("\nName[nl]=iCare\n"))
        #expect(desktop.contains("\nComment[nl]=Geef je ogen elke 20 minuten rust"))
        #expect(auto.contains("\nName[nl]=iCare-herinneringsdienst\n"))
        // Every language of po/LINGUAS: the entry's comment and keywords, the autostart entry's name.
        for language in Catalogs.languages {
            for key in ["Comment", "Keywords"] { #expect(desktop.contains("\n\(key)[\(language)]="), "no \(key)[\(language)] in the entry") }
            #expect(auto.contains("\nName[\(language)]="), "no Name[\(language)] in the autostart entry")
        }
        #expect(try read(prefix + "/share/man/nl/man1/icarectl.1").contains("\n.SH BESCHRIJVING\n"))
        for (name, text) in [("unit", unit), ("activation", service), ("desktop", desktop), ("autostart", auto)] {
            let placeholders = ["@bindir@", "@datadir@", "@prefix@", "@sysconfdir@"].filter(text.contains)
            #expect(placeholders.isEmpty, "\(name) file still has \(placeholders)")
        }
        let xml = try read(prefix + "/share/dbus-1/interfaces/org.icare.Reminder.xml")
        #expect(try xml == String(contentsOf: Self.repo.appendingPathComponent("dbus/org.icare.Reminder.xml"), encoding: .utf8))
    }

    /// Every entry below `root`, as paths relative to it (folders end in "/").
    func contents(of root: String) -> [String] {
        guard let e = FileManager.default.enumerator(atPath: root) else { return [] }
        var out: [String] = []
        while let rel = e.nextObject() as? String {
            var isDir: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: root + "/" + rel, isDirectory: &isDir)
            out.append("/" + rel + (isDir.boolValue ? "/" : ""))
        }
        return out
    }

    /// The figure of "→ Overall exposure level for icared.service: 0.8 SAFE".
    static func exposure(in output: String) -> Double? {
        guard let line = output.split(separator: "\n").first(where: { $0.contains("Overall exposure level") }),
              let colon = line.lastIndex(of: ":") else { return nil }
        return line[line.index(after: colon)...].split(separator: " ").first.flatMap { Double($0) }
    }
}

/// A temporary folder, removed when the test ends.
final class InstallTempDir {
    let path: String
    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("icare-install-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
}
