import Testing
import Foundation
import TestSupport

/// Released means tagged (issue 54, item 6): a version is released when its tag vX.Y.Z exists; until
/// then NEWS calls it unreleased with no date, debian/changelog names it UNRELEASED, the metainfo makes it
/// a development release, and no date is in the future. `scripts/version --check` holds the tree to it
/// and refuses each way of breaking it, said in a sentence; each case below breaks a copy of the tree
/// (in a repository of its own, with its own tags) one way.
@Suite struct ReleaseTests {
    /// The files scripts/version reads and writes, copied from the tree into a new repository with the
    /// tree's tags (each as of its own date), but the newest version's: it is unreleased there, whatever
    /// the tree's state, so each case starts from a version in development.
    final class Scratch {
        let root: URL
        let identity = ["GIT_AUTHOR_NAME": "Tester", "GIT_AUTHOR_EMAIL": "tester@example.org",
                        "GIT_COMMITTER_NAME": "Tester", "GIT_COMMITTER_EMAIL": "tester@example.org"]

        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("icare-release-\(UUID().uuidString)")
            let catalogs = try FileManager.default.contentsOfDirectory(atPath: repository.appendingPathComponent("po").path)
                .filter { $0.hasSuffix(".po") || $0 == "icare.pot" }.map { "po/" + $0 }
            #expect(catalogs.count == 11, "\(catalogs)")
            for file in ["scripts/version", "NEWS", "NEWS.released", "debian/changelog", "debian/control",
                         "Sources/ReminderCore/Version.swift", "data/org.icare.Reminder.metainfo.xml.in"] + catalogs {
                let target = root.appendingPathComponent(file)
                try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                try FileManager.default.copyItem(at: repository.appendingPathComponent(file), to: target)
            }
            try git(["init", "-q"])
            try git(["add", "-A"])
            try git(["commit", "-q", "-m", "the tree"])
            let tags = try Subprocess.run(["git", "-C", repository.path, "for-each-ref", "--format=%(refname:short) %(creatordate:iso-strict)", "refs/tags/v*"])
            #expect(tags.status == 0, "\(tags)")
            let newest = try version().stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            for line in tags.stdout.split(separator: "\n") {
                let parts = line.split(separator: " ").map(String.init)
                guard parts.count == 2, parts[0] != "v" + newest else { continue }
                try git(["tag", "-a", parts[0], "-m", parts[0]], environment: ["GIT_COMMITTER_DATE": parts[1]])
            }
            // The tree's newest version released already: unreleased here, as --write makes it without its tag.
            if !(try read("NEWS")).split(separator: "\n")[2].hasPrefix("Unreleased:") {
                let write = try version(["--write"])
                #expect(write.status == 0, "\(write)")
            }
        }
        deinit { try? FileManager.default.removeItem(at: root) }

        @discardableResult
        func git(_ arguments: [String], environment: [String: String] = [:]) throws -> ProcessResult {
            let r = try Subprocess.run(["git", "-C", root.path] + arguments, environment: identity.merging(environment) { $1 })
            if r.status != 0 { throw HarnessError("git \(arguments): \(r)") }
            return r
        }
        func version(_ arguments: [String] = []) throws -> ProcessResult {
            try Subprocess.run([root.appendingPathComponent("scripts/version").path] + arguments)
        }
        func read(_ file: String) throws -> String {
            try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
        }
        /// Rewrites `file`, failing when `old` is not in it.
        func replace(_ old: String, with new: String, in file: String) throws {
            let text = try read(file)
            guard text.contains(old) else { throw HarnessError("\(file) has no '\(old)'") }
            try text.replacingOccurrences(of: old, with: new).write(to: root.appendingPathComponent(file), atomically: true, encoding: .utf8)
        }
        /// The line under NEWS's first heading.
        var newestStatus: String { get throws { try read("NEWS").split(separator: "\n", omittingEmptySubsequences: false)[2].description } }
        /// The version NEWS names first.
        var current: String { get throws { try version().stdout.trimmingCharacters(in: .whitespacesAndNewlines) } }
    }

    /// What `--check` says of a tree broken one way: it must refuse, saying `sentence`.
    static func expectRefused(_ scratch: Scratch, saying sentence: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let r = try scratch.version(["--check"])
        #expect(r.status == 1 && r.stderr.contains(sentence), "scripts/version --check did not refuse, saying '\(sentence)': \(r)",
                sourceLocation: sourceLocation)
    }

    @Test func theTreeFollowsItsTags() throws {
        let check = try Subprocess.run([repository.appendingPathComponent("scripts/version").path, "--check"])
        #expect(check.status == 0, "\(check)")
        // And so does the copy, before anything is broken: what the other cases break is the tree as it is.
        let scratch = try Scratch()
        let copy = try scratch.version(["--check"])
        #expect(copy.status == 0, "\(copy)")
        // Nothing is tagged in the copy: the newest version is in development, the changelog says UNRELEASED.
        #expect(try scratch.newestStatus == "Unreleased: in development, not tagged yet")
        #expect(try scratch.read("debian/changelog").hasPrefix("icare (\(try scratch.current)-1) UNRELEASED; urgency=medium\n"))
    }

    @Test func aDatedUnreleasedVersionIsRefused() throws {
        let scratch = try Scratch()
        let version = try scratch.current
        try scratch.replace(try scratch.newestStatus, with: "Released: 2026-12-05", in: "NEWS")
        try Self.expectRefused(scratch, saying: "NEWS says 'Released: 2026-12-05' under \(version), but there is no tag v\(version)")

        try scratch.replace("Released: 2026-12-05", with: "Unreleased: to be released 2026-12-05", in: "NEWS")
        try Self.expectRefused(scratch, saying: "NEWS's \(version) is unreleased (no tag v\(version)) but carries a date, 2026-12-05")
    }

    @Test func anUntaggedVersionMustBeCalledUnreleased() throws {
        let scratch = try Scratch()
        let version = try scratch.current
        try scratch.replace(try scratch.newestStatus, with: "Ready: nearly", in: "NEWS")
        try Self.expectRefused(scratch, saying: "NEWS says 'Ready: nearly' under \(version), but there is no tag v\(version)")
    }

    @Test func aDateInTheFutureIsRefused() throws {
        // A tag dated ahead of the clock: NEWS and the changelog take its day, which has not come.
        let scratch = try Scratch()
        let version = try scratch.current
        try scratch.git(["tag", "-a", "v\(version)", "-m", "iCare \(version)"], environment: ["GIT_COMMITTER_DATE": "2099-01-01T12:00:00Z"])
        #expect(try scratch.version(["--write"]).status == 0)
        #expect(try scratch.newestStatus == "Released: 2099-01-01")
        try Self.expectRefused(scratch, saying: "NEWS dates \(version) 2099-01-01, a day still to come; no date is ever in the future")
        try Self.expectRefused(scratch, saying: "debian/changelog dates \(version) 'Thu, 01 Jan 2099 12:00:00 +0000', a time still to come")

        // The unreleased version's changelog entry dated ahead by hand.
        let other = try Scratch()
        let changelog = try other.read("debian/changelog")
        let trailer = try #require(changelog.split(separator: "\n").first { $0.hasPrefix(" -- ") })
        let stamp = String(trailer[trailer.range(of: ">  ")!.upperBound...])
        try other.replace(stamp, with: "Thu, 01 Jan 2099 12:00:00 +0000", in: "debian/changelog")
        try Self.expectRefused(other, saying: "debian/changelog dates \(version) 'Thu, 01 Jan 2099 12:00:00 +0000', a time still to come")
    }

    @Test func aStaleCatalogHeaderIsRefused() throws {
        let scratch = try Scratch()
        let version = try scratch.current
        try scratch.replace("\"Project-Id-Version: icare \(version)\\n\"", with: "\"Project-Id-Version: icare 0.1.0\\n\"", in: "po/nl.po")
        try Self.expectRefused(scratch, saying: "po/nl.po's header says 'Project-Id-Version: icare 0.1.0', not the current 'icare \(version)'")
    }

    @Test func theChangelogsDistributionFollowsTheTag() throws {
        let scratch = try Scratch()
        let version = try scratch.current
        try scratch.replace("icare (\(version)-1) UNRELEASED;", with: "icare (\(version)-1) unstable;", in: "debian/changelog")
        try Self.expectRefused(scratch, saying: "debian/changelog names \(version) 'unstable', but there is no tag v\(version)")
    }

    /// Tagging is releasing: --check then asks for the stamp, --write gives it (the tag's day in NEWS, "unstable"
    /// at the tag's time in the changelog, the entry pinned), and the metainfo makes it a stable release.
    @Test func aTagMakesTheRelease() throws {
        let scratch = try Scratch()
        let version = try scratch.current
        try scratch.git(["tag", "-a", "v\(version)", "-m", "iCare \(version)"], environment: ["GIT_COMMITTER_DATE": "2026-12-06T09:30:00Z"])
        try Self.expectRefused(scratch, saying: "\(version) is released (its tag v\(version) is of 2026-12-06) but NEWS says 'Unreleased:")
        try Self.expectRefused(scratch, saying: "debian/changelog names \(version) UNRELEASED, but its tag v\(version) exists")

        let write = try scratch.version(["--write"])
        #expect(write.status == 0, "\(write)")
        #expect(try scratch.newestStatus == "Released: 2026-12-06")
        #expect(try scratch.read("debian/changelog").hasPrefix("icare (\(version)-1) unstable; urgency=medium\n"))
        #expect(try scratch.read("debian/changelog").contains("  Sun, 06 Dec 2026 09:30:00 +0000\n"))
        #expect(try scratch.read("NEWS.released").contains("\n\(version) "))
        let check = try scratch.version(["--check"])
        #expect(check.status == 0, "\(check)")

        let metainfo = scratch.root.appendingPathComponent("metainfo.xml").path
        let made = try scratch.version(["--metainfo", scratch.root.appendingPathComponent("data/org.icare.Reminder.metainfo.xml.in").path, metainfo])
        #expect(made.status == 0, "\(made)")
        let xml = try String(contentsOfFile: metainfo, encoding: .utf8)
        #expect(xml.contains("<release type=\"stable\" version=\"\(version)\" date=\"2026-12-06"), "\(xml.prefix(3000))")
        #expect(!xml.contains("type=\"stable\" version=\"0.6.0\""), "0.6.0 was never tagged")
    }

    /// A closed entry (below the newest, or tagged) keeps its text: a change goes under a new version, and
    /// the one below it becomes a snapshot of its own.
    @Test func aClosedEntryCannotChangeLater() throws {
        let scratch = try Scratch()
        let version = try scratch.current
        let news = try scratch.read("NEWS")
        let olderHeading = try #require(news.split(separator: "\n").dropFirst().first { $0.hasPrefix("Version ") })
        let olderItem = try #require(news[news.range(of: String(olderHeading))!.upperBound...].split(separator: "\n").first { $0.hasPrefix(" * ") })
        try scratch.replace(String(olderItem), with: String(olderItem) + " And a fix told later.", in: "NEWS")
        try Self.expectRefused(scratch, saying: "NEWS's entry for \(olderHeading.dropFirst("Version ".count)) changed after it closed")
        try scratch.replace(String(olderItem) + " And a fix told later.", with: String(olderItem), in: "NEWS")

        // The next version on top: the one before it is closed, a development snapshot, and its changelog entry keeps its time.
        let next = "9.0.0"
        try ("Version \(next)\n~~~~~~~~~~~~~\nUnreleased: soon\n\nBugfixes:\n * A fix told later.\n\n" + news)
            .write(to: scratch.root.appendingPathComponent("NEWS"), atomically: true, encoding: .utf8)
        for catalog in try FileManager.default.contentsOfDirectory(atPath: scratch.root.appendingPathComponent("po").path) {
            try scratch.replace("Project-Id-Version: icare \(version)", with: "Project-Id-Version: icare \(next)", in: "po/" + catalog)
        }
        let before = try scratch.read("debian/changelog")
        let write = try scratch.version(["--write"])
        #expect(write.status == 0, "\(write)")
        let check = try scratch.version(["--check"])
        #expect(check.status == 0, "\(check)")
        #expect(try scratch.read("NEWS").contains("Version \(version)\n~~~~~~~~~~~~~\nUnreleased: a development snapshot, never tagged or published\n"))
        #expect(try scratch.read("debian/changelog").hasSuffix(before), "the entries below the new one keep their times")
        #expect(try scratch.read("NEWS.released").contains("\n\(version) "), "\(version) is pinned")
    }
}
