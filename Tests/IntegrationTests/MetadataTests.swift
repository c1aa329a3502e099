import Testing
import Foundation
import TestSupport
import ReminderCore

/// What software centres and packagers read, as `make install` writes it:
/// the AppStream metainfo (validated by the real appstreamcli at its most
/// pedantic, its texts in Dutch too, its releases from NEWS) and the desktop
/// entries (desktop-file-validate); and one version, from NEWS, everywhere.
@Suite struct MetadataTests {
    static let repo = InstallTests.repo
    static let uppercaseHint = "P: org.icare.Reminder:3: cid-contains-uppercase-letter org.icare.Reminder"

    /// One install into a temporary prefix, read by each check.
    static func installed() throws -> (InstallTempDir, String) {
        let tmp = try InstallTempDir()
        try InstallTests().make(["install", "DESTDIR=\(tmp.path)", "PREFIX=/usr"])
        return (tmp, tmp.path + "/usr/share")
    }

    @Test func theMetainfoPassesAppstreamcliAtItsMostPedantic() throws {
        let (tmp, share) = try Self.installed()
        _ = tmp
        let file = share + "/metainfo/org.icare.Reminder.metainfo.xml"
        let r = try Subprocess.run(["appstreamcli", "validate", "--pedantic", "--no-net", "--no-color", file])
        #expect(r.status == 0, "\(r)")
        let findings = (r.stdout + r.stderr).split(separator: "\n").filter { $0.count > 2 && "EWIP".contains($0.first!) && $0.dropFirst().hasPrefix(": ") }
        // The one pedantic hint iCare keeps: its id has a capital letter, as org.gnome.Nautilus's does, because a
        // Flatpak's id must be the bus name icared owns (docs/architecture.md, "The app's id and its name").
        #expect(findings.map(String.init) == [Self.uppercaseHint], "appstreamcli --pedantic: \(findings)")

        let xml = try String(contentsOfFile: file, encoding: .utf8)
        // Every language of po/LINGUAS: the name, summary, captions, keywords and description (its
        // paragraphs and the release notes' items).
        for language in Catalogs.languages {
            for tag in ["name", "summary", "caption", "keyword", "p", "li"] {
                #expect(xml.contains("<\(tag) xml:lang=\"\(language)\">"), "no <\(tag)> in \(language)")
            }
        }
        #expect(xml.contains("<p xml:lang=\"nl\">Kijk elke 20 minuten 20 seconden lang naar iets op zo’n 6 meter afstand."))
        #expect(xml.contains("<launchable type=\"desktop-id\">org.icare.Reminder.desktop</launchable>"))
        #expect(xml.contains("<dbus type=\"user\">org.icare.Reminder</dbus>"))
        // The releases, newest first, are NEWS's: the first one is the version the programs tell, a stable
        // release once it is tagged (NEWS says "Released:"), a development one until then (ReleaseTests).
        let first = try #require(xml.range(of: "<release ")).upperBound
        let news = try String(contentsOf: Self.repo.appendingPathComponent("NEWS"), encoding: .utf8)
        let kind = news.split(separator: "\n")[2].hasPrefix("Released: ") ? "stable" : "development"
        #expect(xml[first...].hasPrefix("type=\"\(kind)\" version=\"\(ICareVersion.current)\""), "\(xml[first...].prefix(80))")
        #expect(!xml.contains("This release adds") || xml.contains("Deze versie voegt"), "the release notes are translated")
        // What the metainfo promises is installed beside it.
        for path in ["/applications/org.icare.Reminder.desktop", "/dbus-1/services/org.icare.Reminder.service"] {
            #expect(FileManager.default.fileExists(atPath: share + path), "\(path) is missing")
        }
    }

    @Test func theDesktopEntriesPassDesktopFileValidate() throws {
        let (tmp, share) = try Self.installed()
        for entry in [share + "/applications/org.icare.Reminder.desktop", tmp.path + "/etc/xdg/autostart/icared-autostart.desktop"] {
            let r = try Subprocess.run(["desktop-file-validate", entry])
            #expect(r.status == 0 && r.stdout.isEmpty && r.stderr.isEmpty, "\(entry): \(r)")
        }
    }

    /// NEWS is the one place the version is set; the files that must carry the number are written
    /// from it (scripts/version --write) and the built programs tell it. What the tags make of it
    /// (released or not, and when) is ReleaseTests'.
    @Test func oneVersionFromNEWS() throws {
        let script = Self.repo.appendingPathComponent("scripts/version").path
        let version = try Subprocess.run([script])
        #expect(version.status == 0, "\(version)")
        #expect(version.stdout == ICareVersion.current + "\n")
        let check = try Subprocess.run([script, "--check"])
        #expect(check.status == 0, "\(check)")
        // The package is the release packaged once: Debian's revision -1.
        let changelog = try Subprocess.run(["dpkg-parsechangelog", "-l", Self.repo.appendingPathComponent("debian/changelog").path, "-S", "Version"])
        #expect(changelog.stdout == ICareVersion.current + "-1\n", "\(changelog)")
        for program in ["icared", "icarectl"] {
            let r = try Subprocess.run([try Products.path(program), "--version"])
            #expect(r.stdout == "\(program) \(ICareVersion.current)\n", "\(r)")
        }
    }

    /// Every file in the tree whose header names a copyright of its own (the generated Wayland protocol
    /// code) has its own stanza in debian/copyright, under the license its header gives.
    @Test func debianCopyrightNamesEveryFileOfAnotherAuthor() throws {
        let copyright = try String(contentsOf: Self.repo.appendingPathComponent("debian/copyright"), encoding: .utf8)
        let files = try Subprocess.run(["git", "-C", Self.repo.path, "grep", "-l", "-I", "-E",
                                        "SPDX-FileCopyrightText|Copyright ©", "--", "Sources", "gnome-extension", "data"])
        let listed = files.stdout.split(separator: "\n").map(String.init)
        #expect(listed.count >= 4, "\(files)")
        for file in listed {
            let text = try String(contentsOf: Self.repo.appendingPathComponent(file), encoding: .utf8)
            let license = text.contains("SPDX-License-Identifier: LGPL-2.1-or-later") ? "LGPL-2.1+"
                : text.contains("Permission is hereby granted, free of charge") ? "Expat" : "?"
            let stanza = copyright.components(separatedBy: "\n\n").first { $0.hasPrefix("Files:") && $0.contains(file) }
            #expect(stanza?.contains("\nLicense: \(license)\n") == true, "\(file) (\(license)) has no stanza of its own: \(stanza ?? "none")")
        }
    }
}
