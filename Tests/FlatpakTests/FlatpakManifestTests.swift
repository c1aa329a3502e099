import Testing
import Foundation
import TestSupport

/// The Flathub manifest and the one list of permissions (flatpak/finish-args) agree, and nothing in
/// them is what Flathub refuses (docs/desktop-facts.md, "Flatpak": flatpak-builder-lint's errors).
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

    @Test func theExportedServiceFileStartsTheSandboxedIcared() throws {
        let text = try String(contentsOf: Self.folder.appendingPathComponent("org.icare.Reminder.service"), encoding: .utf8)
        #expect(text == "[D-BUS Service]\nName=org.icare.Reminder\nExec=/app/bin/icared\n",
                "Name= is the file's name (flatpak exports only such files); no SystemdService=: no icared.service outside the sandbox")
    }
}
