import Testing
import Foundation

/// The files and folders the man pages' FILES sections name come from one list, `FilesList.entries`
/// (issue 54, item 2): each page names exactly its entries, each entry is made by the code it names
/// (its literals are there), and each folder icared writes is one the unit grants, as icared(8)'s
/// SANDBOX says (written from the unit by scripts/reference-pages), and each grant is used.
enum FilesList {
    struct Entry {
        /// As the pages write it.
        let path: String
        /// The man pages whose FILES section names it.
        let pages: [String]
        /// Whether icared writes it (else it reads it, or it is installed).
        let icaredWrites: Bool
        /// Where the code makes the path: a source file and what it writes there.
        let code: [(file: String, literal: String)]
    }

    static let icared = "man/icared.8", icare = "man/icare.1"
    static let xdg = "Sources/FileKit/XDGPaths.swift", makefile = "Makefile"

    static let entries: [Entry] = [
        Entry(path: "$XDG_CONFIG_HOME/icare/config", pages: [icared], icaredWrites: true,
              code: [(xdg, #"config + "/icare""#), (xdg, #"configDirectory + "/config""#)]),
        Entry(path: "$XDG_STATE_HOME/icare/history/", pages: [icared], icaredWrites: true,
              code: [(xdg, #"state + "/icare""#), (xdg, #"stateDirectory + "/history""#)]),
        Entry(path: "$XDG_STATE_HOME/icare/state", pages: [icared], icaredWrites: true,
              code: [(xdg, #"stateDirectory + "/state""#)]),
        Entry(path: "$XDG_STATE_HOME/icare/icared.lock", pages: [icared], icaredWrites: true,
              code: [("Sources/ICareFiles/InstanceLock.swift", #"paths.stateDirectory + "/icared.lock""#)]),
        Entry(path: "$XDG_STATE_HOME/icare/welcome", pages: [icared], icaredWrites: true,
              code: [("Sources/ICareFiles/WelcomeMark.swift", #"paths.stateDirectory + "/welcome""#)]),
        Entry(path: "$XDG_STATE_HOME/icare/starts-at-login", pages: [icared], icaredWrites: true,
              code: [("Sources/ICareFiles/AppMarks.swift", #"paths.stateDirectory + "/" + Self.fileName"#),
                     ("Sources/ICareFiles/AppMarks.swift", #"fileName = "starts-at-login""#)]),
        Entry(path: "$XDG_STATE_HOME/icare-app/welcome-seen", pages: [icare], icaredWrites: false,
              code: [(xdg, #"state + "/icare-app""#), ("Sources/ICareFiles/AppMarks.swift", #"path = paths.appStateDirectory + "/welcome-seen""#)]),
        Entry(path: "$XDG_RUNTIME_DIR/icare/notification", pages: [icared], icaredWrites: true,
              code: [(xdg, #"Self.trimmedSlashes(runtime) + "/icare""#),
                     ("Sources/ReminderService/NotificationMemo.swift", #"directory + "/notification""#)]),
        Entry(path: "$XDG_CONFIG_HOME/kdeconnect/PHONE/kdeconnect_runcommand/config", pages: [icared], icaredWrites: true,
              code: [("Sources/PhoneRemote/KDEConnectRemote.swift", #"configHome + "/kdeconnect""#),
                     ("Sources/PhoneRemote/KDEConnectRemote.swift", #"folder + "/" + id + "/" + Self.plugin + "/config""#),
                     ("Sources/PhoneRemote/KDEConnectRemote.swift", #"plugin = "kdeconnect_runcommand""#)]),
        Entry(path: "$XDG_CONFIG_HOME/dconf/user", pages: [icared], icaredWrites: false,
              code: [(xdg, #"config + "/dconf/user""#)]),
        Entry(path: "/usr/lib/systemd/user/icared.service", pages: [icared], icaredWrites: false,
              code: [(makefile, "$(PREFIX)/lib/systemd/user)"), (makefile, "$(D)$(SYSTEMDUSERUNITDIR)/icared.service")]),
        Entry(path: "/usr/share/dbus-1/services/org.icare.Reminder.service", pages: [icared], icaredWrites: false,
              code: [(makefile, "DBUSSERVICEDIR ?= $(DATADIR)/dbus-1/services"), (makefile, "$(D)$(DBUSSERVICEDIR)/org.icare.Reminder.service")]),
        Entry(path: "/usr/share/dbus-1/interfaces/org.icare.Reminder.xml", pages: [icared], icaredWrites: false,
              code: [(makefile, "DBUSINTERFACEDIR ?= $(DATADIR)/dbus-1/interfaces"), (makefile, "$(D)$(DBUSINTERFACEDIR)/org.icare.Reminder.xml")]),
    ]

    /// A roff word as written: `\-` is `-`.
    static func plain(_ roff: String) -> String { roff.replacingOccurrences(of: "\\-", with: "-") }

    /// The paths a page's FILES section names: each `.TP` entry's `.I` tag.
    static func named(in page: String) -> [String] {
        let lines = page.components(separatedBy: "\n")
        guard let start = lines.firstIndex(of: ".SH FILES") else { return [] }
        let section = lines[(start + 1)...].prefix { !$0.hasPrefix(".SH ") }
        return zip(section, section.dropFirst()).compactMap { tag, next in
            tag == ".TP" && next.hasPrefix(".I ") ? plain(String(next.dropFirst(3))) : nil
        }
    }

    /// The folders icared(8)'s SANDBOX says the unit lets icared write (its part written by scripts/reference-pages).
    static func granted(in page: String) -> [String] {
        guard let begin = page.range(of: ".\\\" BEGIN sandbox"), let end = page.range(of: ".\\\" END sandbox") else { return [] }
        return page[begin.upperBound..<end.lowerBound].components(separatedBy: "\n").compactMap { line in
            guard line.hasPrefix(".I ") || line.hasPrefix(".IR ") else { return nil }
            return plain(String(line.split(separator: " ")[1]))
        }
    }

    /// Whether `path` lies in `folder`; the unit sets XDG_STATE_HOME to ~/.local/state.
    static func lies(_ path: String, in folder: String) -> Bool {
        let path = path.replacingOccurrences(of: "$XDG_STATE_HOME", with: "~/.local/state")
        return path.hasPrefix(folder + "/")
    }
}

@Suite struct FilesListTests {
    func read(_ path: String) throws -> String {
        try String(contentsOf: repository.appendingPathComponent(path), encoding: .utf8)
    }

    @Test(arguments: [FilesList.icared, FilesList.icare])
    func aPageNamesItsFilesFromTheList(page: String) throws {
        let named = FilesList.named(in: try read(page))
        let listed = FilesList.entries.filter { $0.pages.contains(page) }.map(\.path)
        #expect(named == listed, "\(page)'s FILES section names \(named), the list \(listed)")
    }

    @Test func theCodeMakesEachListedPath() throws {
        for entry in FilesList.entries {
            for (file, literal) in entry.code {
                #expect(try read(file).contains(literal), "\(entry.path): \(file) no longer has \(literal)")
            }
        }
    }

    @Test func icaredWritesOnlyWhereTheUnitLetsIt() throws {
        let granted = FilesList.granted(in: try read(FilesList.icared))
        #expect(granted.count >= 4, "icared(8)'s SANDBOX grants \(granted)")
        for entry in FilesList.entries where entry.icaredWrites {
            #expect(granted.contains { FilesList.lies(entry.path, in: $0) }, "icared writes \(entry.path), in no folder the unit grants (\(granted))")
        }
        for folder in granted {
            #expect(FilesList.entries.contains { $0.icaredWrites && FilesList.lies($0.path, in: folder) },
                    "the unit grants \(folder), and no file in icared(8)'s FILES is there")
        }
    }

    /// The parsers find what a page says and miss nothing: a FILES entry without a `.TP`, a sandbox without its part.
    @Test func theSectionsAreReadAsWritten() {
        let page = ".SH FILES\n.TP\n.I $XDG_STATE_HOME/icare/a\\-b\nText.\n.PP\n.I not/an/entry\n.SH SANDBOX\n"
            + ".\\\" BEGIN sandbox: written by scripts/reference-pages\nonly\n.IR ~/.local/state/icare \",\"\n.I $XDG_RUNTIME_DIR/icare\n.\\\" END sandbox\n"
        #expect(FilesList.named(in: page) == ["$XDG_STATE_HOME/icare/a-b"])
        #expect(FilesList.granted(in: page) == ["~/.local/state/icare", "$XDG_RUNTIME_DIR/icare"])
        #expect(FilesList.lies("$XDG_STATE_HOME/icare/a-b", in: "~/.local/state/icare"))
        #expect(!FilesList.lies("$XDG_STATE_HOME/icare-app/x", in: "~/.local/state/icare"))
    }
}
