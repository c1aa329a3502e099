import Testing
import Foundation
import TestSupport

/// The Flathub manifest and the one list of permissions (flatpak/finish-args) agree, and nothing in
/// them is what Flathub refuses (docs/flatpak.md, "What the list never asks for").
struct FlatpakManifestTests {
    static let folder = repositoryRoot.appendingPathComponent("flatpak")

    /// flatpak/finish-args: the arguments, each with the comment line above it.
    static func finishArgs() throws -> [(comment: String, arg: String)] {
        let lines = try String(contentsOf: folder.appendingPathComponent("finish-args"), encoding: .utf8).split(separator: "\n").map(String.init)
        return lines.indices.compactMap { i in
            guard !lines[i].hasPrefix("#") else { return nil }
            return (i > 0 && lines[i - 1].hasPrefix("# ") ? String(lines[i - 1].dropFirst(2)) : "", lines[i])
        }
    }

    /// The manifest's `finish-args:` list (block style, `  - ARG` a line).
    static func manifestArgs() throws -> [String] {
        let lines = try String(contentsOf: folder.appendingPathComponent("org.icare.Reminder.yml"), encoding: .utf8).split(separator: "\n")
        guard let start = lines.firstIndex(of: "finish-args:") else { return [] }
        return lines[(start + 1)...].prefix { $0.hasPrefix("  - ") }.map { String($0.dropFirst(4)) }
    }

    @Test func theManifestHasExactlyTheListsArguments() throws {
        let args = try Self.finishArgs()
        #expect(!args.isEmpty)
        #expect(try Self.manifestArgs() == args.map(\.arg), "flatpak/org.icare.Reminder.yml's finish-args differ from flatpak/finish-args")
        for (comment, arg) in args {
            #expect(!comment.isEmpty, "\(arg) needs a comment line above it saying which feature needs it")
        }
        #expect(Set(args.map(\.arg)).count == args.count, "an argument twice")
    }

    @Test func nothingFlathubRefuses() throws {
        for (_, arg) in try Self.finishArgs() {
            #expect(!arg.hasPrefix("--own-name"), "\(arg): names under the app id need no --own-name, others are never granted")
            #expect(!arg.hasPrefix("--system-talk-name") && !arg.hasPrefix("--system-own-name"), "\(arg): no system bus")
            #expect(arg != "--socket=system-bus" && arg != "--socket=session-bus", "\(arg)")
            #expect(!arg.contains("dconf"), "\(arg): no direct dconf")
            #expect(!arg.hasSuffix(".*") && !arg.hasSuffix("*"), "\(arg): no wildcard names")
            let filesystem = arg.hasPrefix("--filesystem=") ? String(arg.dropFirst("--filesystem=".count)) : nil
            #expect(filesystem.map { !["home", "host", "host-os", "host-etc", "~", "/"].contains($0.split(separator: ":").first.map(String.init) ?? "") } ?? true,
                    "\(arg): no home or host file system")
        }
    }

    @Test func theManifestBuildsFromSourceWithTheSwiftExtension() throws {
        let text = try String(contentsOf: Self.folder.appendingPathComponent("org.icare.Reminder.yml"), encoding: .utf8)
        for line in ["id: org.icare.Reminder", "runtime: org.gnome.Platform", "sdk: org.gnome.Sdk",
                     "  - org.freedesktop.Sdk.Extension.swift6", "command: icare"] {
            #expect(text.split(separator: "\n").contains { $0 == line }, "the manifest lacks '\(line)'")
        }
        let builds = text.split(separator: "\n").filter { $0.contains("swift build") }
        #expect(!builds.isEmpty && builds.allSatisfy { $0.contains("-c release") && $0.contains("--static-swift-stdlib") }, "\(builds)")
        #expect(!text.contains("build-args"), "no --share=network at build time")
    }

    /// Bus names icared calls that the Flatpak deliberately does not get, each with the reason (docs/flatpak.md).
    static let notGranted = [
        "org.freedesktop.login1": "on the system bus, which the sandbox does not get",
        "ca.desrt.dconf": "direct dconf, which Flathub refuses",
        "org.kde.plasmashell": "only tells whose dconf keys count, and dconf is out of reach",
        "org.Cinnamon": "only tells whose dconf keys count, and dconf is out of reach",
    ]

    /// Every well-known name the service's sources call (`BusName("…")`, `busName = "…"`, `(name: "…"`) is
    /// under the app id, granted by a --talk-name, or in `notGranted`: a new watcher cannot lose its
    /// permission unnoticed.
    @Test func everyNameIcaredCallsIsGrantedOrKnowinglyLeftOut() throws {
        let granted = Set(try Self.finishArgs().map(\.arg).filter { $0.hasPrefix("--talk-name=") }.map { String($0.dropFirst("--talk-name=".count)) })
        let sources = repositoryRoot.appendingPathComponent("Sources")
        var names: Set<String> = []
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        for file in files where file.pathExtension == "swift" {
            let target = file.path.dropFirst(sources.path.count + 1).split(separator: "/").first.map(String.init) ?? ""
            guard !["icare", "icare-bench", "ReminderClient", "ICareCLI"].contains(target) else { continue }
            for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
                for marker in ["BusName(\"", "busName = \"", "(name: \""] {
                    guard let start = line.range(of: marker)?.upperBound, let end = line[start...].firstIndex(of: "\"") else { continue }
                    let name = String(line[start..<end])
                    if name.split(separator: ".").count >= 2 { names.insert(name) }
                }
            }
        }
        #expect(names.contains("org.freedesktop.Notifications") && names.count > 10, "the scan finds the names: \(names.sorted())")
        // flatpak lets every app talk to the portals (org.freedesktop.portal.*) with no finish-arg.
        for name in names.sorted() where !name.hasPrefix("org.freedesktop.DBus") && !name.hasPrefix("org.icare.Reminder")
            && !name.hasPrefix("org.freedesktop.portal.") {
            #expect(granted.contains(name) || Self.notGranted[name] != nil,
                    "icared calls \(name): grant it in flatpak/finish-args (and the manifest) or say why not in notGranted")
        }
        for name in granted {
            #expect(names.contains(name), "flatpak/finish-args grants \(name), which icared's sources never call")
        }
    }

    @Test func theExportedServiceFileStartsTheSandboxedIcared() throws {
        let text = try String(contentsOf: Self.folder.appendingPathComponent("org.icare.Reminder.service"), encoding: .utf8)
        #expect(text == "[D-BUS Service]\nName=org.icare.Reminder\nExec=/app/bin/icared\n",
                "Name= is the file's name (flatpak exports only such files); no SystemdService=: no icared.service outside the sandbox")
    }
}
