import Testing
import Foundation
import TestSupport

/// scripts/deps.sh, the one list of system packages, in two parts:
/// `scripts/run` (a person trying iCare on their own desktop) installs only
/// what building and running need; the desktops' programs the tests run
/// for real come with `scripts/test` alone.
@Suite struct DepsScriptTests {
    static let repo = InstalledICare.repo

    static func list(_ arguments: [String]) throws -> [String] {
        let r = try Subprocess.run([repo.path + "/scripts/deps.sh", "--list"] + arguments)
        guard r.status == 0 else { throw HarnessError("deps.sh --list \(arguments): \(r)") }
        return r.stdout.split(separator: "\n").map(String.init)
    }

    @Test func theRunListHasNoNotificationServerPanelCompositorOrTestTool() throws {
        let run = try Self.list([]), all = try Self.list(["--test"])
        for build in ["pkg-config", "libdbus-1-dev", "libsystemd-dev", "libwayland-dev", "libpipewire-0.3-dev", "dbus-daemon", "gettext"] {
            #expect(run.contains(build), "building needs \(build)")
        }
        let testOnly = ["dunst", "xfce4-notifyd", "notification-daemon", "mako-notifier", "sway-notification-center",
                        "xfce4-panel", "waybar", "sway", "xvfb", "lintian", "valgrind", "pipewire", "wireplumber", "python3-dbusmock"]
        for package in testOnly {
            #expect(!run.contains(package), "\(package) is for the tests only")
            #expect(all.contains(package), "the tests still get \(package)")
        }
        #expect(Set(run).isSubset(of: Set(all)) && all.count == Set(all).count, "one list, no package twice")
        // No package of the run list brings a D-Bus activation file for the notification name (or any other desktop's service).
        for package in run {
            let files = try Subprocess.run(["dpkg", "-L", package]).stdout
            #expect(!files.contains("/dbus-1/services/"), "\(package) installs a D-Bus activation file")
        }
        #expect(try Subprocess.run([Self.repo.path + "/scripts/deps.sh", "--bogus"]).status == 64)
    }

    /// Runs `script` from a copy of scripts/ whose deps.sh only records its
    /// arguments, with a stand-in `swift` (its builds are the real scripts'
    /// business, not this test's); what deps.sh was asked for.
    static func depsArguments(_ script: String, _ arguments: [String]) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("icare-deps-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let scripts = dir.appendingPathComponent("scripts"), bin = dir.appendingPathComponent("bin")
        for folder in [scripts, bin] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        for name in [script, "products.sh"] {
            try FileManager.default.copyItem(at: repo.appendingPathComponent("scripts/" + name), to: scripts.appendingPathComponent(name))
        }
        let record = dir.appendingPathComponent("deps-arguments").path
        let stubs = [
            "scripts/deps.sh": "#!/bin/sh\necho \"called $*\" >> '\(record)'\n",
            "scripts/test-deb": "#!/bin/sh\nexit 0\n",
            // swift build --show-bin-path: this folder, where icared is a stand-in that exits at once.
            "bin/swift": "#!/bin/sh\ncase \"$*\" in *--show-bin-path*) echo '\(bin.path)' ;; esac\nexit 0\n",
            "bin/icared": "#!/bin/sh\nexit 0\n",
        ]
        for (path, text) in stubs {
            let file = dir.appendingPathComponent(path).path
            try text.write(toFile: file, atomically: true, encoding: .utf8)
            chmod(file, 0o755)
        }
        let env = ["PATH": bin.path + ":/usr/bin:/bin", "TEXTDOMAINDIR": dir.path, "DBUS_SESSION_BUS_ADDRESS": "", "XDG_RUNTIME_DIR": dir.path]
        let r = try Subprocess.run([scripts.appendingPathComponent(script).path] + arguments, environment: env, timeout: 30)
        guard r.status == 0 else { throw HarnessError("\(script): \(r)") }
        return (try? String(contentsOfFile: record, encoding: .utf8)) ?? ""
    }

    @Test func scriptsRunAsksForTheRunListAndScriptsTestForTheTestList() throws {
        #expect(try Self.depsArguments("run", []) == "called \n")
        #expect(try Self.depsArguments("test", ["--filter", "Nothing"]) == "called --test\n")
    }
}
