import Testing
import Foundation
import TestSupport

/// What iCare shows a person says what works in a person's words: no text of the catalog names a
/// protocol, a D-Bus interface or name, a library or another wire-level thing (issue 54, item 4). The
/// names stay in the log and the docs, where they help whoever digs (docs/desktops.md, docs/interface.md).
///
/// The line: a person may read the name of a product they install, pick at login or see in their
/// settings — iCare, GNOME, GNOME Shell, Plasma, KDE Connect, GSConnect, Xfce, sway, waybar, Flatpak,
/// PipeWire, systemd, X11, Wayland — and what they type (`systemctl --user start icared`, `icarectl set
/// PhoneReminders on`, `--json`, `icared.service` in a systemctl line). They never read a bus or object
/// name (`org.freedesktop.ScreenSaver`, `/org/icare/Reminder`, `org.icare.Reminder.xml`), a Wayland
/// protocol (`ext_idle_notifier_v1`, `ext-idle-notify-v1`, `org_kde_kwin_idle`, `wl_seat`), D-Bus or a
/// bus itself (the session bus, "the bus"), a tray protocol (`StatusNotifierItem`, `…Watcher`), a library
/// (libcanberra, libnotify, GLib), a daemon's inner name (logind, Mutter and its `IdleMonitor`, PowerDevil)
/// or the portals (`xdg-desktop-portal`, "the desktop's portal"), nor an idle inhibitor.
///
/// Which texts, and how the log-only and `--json`-only ones are told apart: by the catalog itself. Every
/// live entry of po/icare.pot is one a person reads — the app, the notifications, icarectl's output and
/// help, its man page, the ring's menu and tooltip, the Shell extension, the desktop entries, the software
/// centre's description, the phone's Run commands, icared's own help, and the few log lines written for
/// people (the reminder where no notification server runs). The log's own lines, where the protocol names
/// belong, are English string literals that never enter the catalog (`Texts.timeScaleInEffect`, the
/// watchers' notes), and `--json` prints keys, the service's raw values and the same words the text output
/// shows (the capabilities'), never a `tr` text of its own.
/// So no entry is left out for where it is shown; only released history is: NEWS's entries of a release
/// pinned in NEWS.released, which reach the template through the metainfo's release notes and keep what
/// they said then (`isReleasedHistory`).
/// Each text is read in English (the template's msgid and plural) and in Dutch (po/nl.po); the other
/// languages are the same texts, held to their words by their glossaries.
///
/// Names a source puts into a text at run time (the desktops behind "through %s") are DesktopFactsTests'.
@Suite struct PersonWordsTests {
    /// What no person reads, each with what it is; case-sensitive where a word of the language could
    /// look alike.
    static let identifiers: [(pattern: String, caseSensitive: Bool, what: String)] = [
        (#"\b(?:org|com|net|io|ca)\.[A-Za-z0-9_-]+\.[A-Za-z0-9_.-]*[A-Za-z0-9_]"#, false, "a reverse-DNS name (a D-Bus name or interface, an app id)"),
        (#"(?<![\w/])/(?:org|com)/[A-Za-z]"#, false, "a D-Bus object path"),
        (#"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+_v[0-9]+\b"#, true, "a Wayland protocol interface (*_v1)"),
        (#"\b[a-z][a-z0-9]*(?:-[a-z0-9]+)+-v[0-9]+\b"#, true, "a Wayland protocol (*-v1)"),
        (#"\b(?:wl|wp|xdg|zxdg|zwp|zwlr|ext|org_kde)_[a-z0-9_]+\b"#, true, "a Wayland interface"),
        (#"\bD-?Bus\b"#, false, "D-Bus"),
        (#"(?<!-)\bbus\b|\bsessiebus\b|\bsysteembus\b"#, false, "a message bus"),
        (#"\bStatusNotifier(?:Item|Watcher|Host)\b"#, true, "the tray protocol"),
        (#"\blib(?:canberra|notify|pipewire|systemd|dbus|appindicator|ayatana-appindicator|wayland-client|portal|adwaita|gtk)\b|\bcanberra\b"#, false, "a library"),
        (#"\b(?:GLib|GIO|GDBus|sd-bus|sd-event)\b"#, true, "a library"),
        (#"\b(?:systemd-)?logind\b|\blogin1\b"#, false, "logind"),
        (#"\bMutter\b|\bIdleMonitor\b"#, true, "Mutter's idle monitor"),
        (#"\bScreenSaver\b"#, true, "a screen saver's bus interface"),
        (#"\bPowerDevil\b"#, false, "Plasma's power daemon by its inner name"),
        (#"\bxdg-desktop-portal"#, false, "xdg-desktop-portal"),
        (#"\bportals?\b|\bportaal\b"#, false, "a portal"),
        (#"\binhibitors?\b|\binhibit(?:ie|ies)\b"#, false, "an idle inhibitor"),
        (#"\bMPRIS\b"#, true, "the media players' bus interface"),
    ]

    /// The identifiers `text` names, as "what: …context…".
    static func identifiers(in text: String) -> [String] {
        var found: [String] = []
        for (pattern, caseSensitive, what) in identifiers {
            let regex = try! NSRegularExpression(pattern: pattern, options: caseSensitive ? [] : [.caseInsensitive])
            for m in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                let r = Range(m.range, in: text)!
                let start = text.index(r.lowerBound, offsetBy: -25, limitedBy: text.startIndex) ?? text.startIndex
                let end = text.index(r.upperBound, offsetBy: 25, limitedBy: text.endIndex) ?? text.endIndex
                found.append("\(what): …\(text[start..<end].replacingOccurrences(of: "\n", with: " "))…")
            }
        }
        return found
    }

    static func flat(_ s: String) -> String {
        s.replacingOccurrences(of: #"\s+"#, with: " ", options: .regularExpression).trimmingCharacters(in: .whitespaces)
    }

    /// NEWS's entries of the releases pinned in NEWS.released, each version's text flattened.
    static func releasedHistory() throws -> [String] {
        let news = try String(contentsOf: repository.appendingPathComponent("NEWS"), encoding: .utf8)
        let pinned = try String(contentsOf: repository.appendingPathComponent("NEWS.released"), encoding: .utf8)
            .split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }
        var blocks: [String: String] = [:]
        var version: String?
        for line in news.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("Version ") { version = String(line.dropFirst("Version ".count)).trimmingCharacters(in: .whitespaces) }
            if let version { blocks[version, default: ""] += line + "\n" }
        }
        return pinned.compactMap { blocks[$0] }.map(flat)
    }

    /// Whether `entry` is released history: only the metainfo's release notes carry it, as NEWS wrote it then.
    static func isReleasedHistory(_ entry: Catalogs.Entry, history: [String]) -> Bool {
        let id = flat(entry.english[0])
        return !entry.references.isEmpty && entry.references.allSatisfy { $0 == "data/org.icare.Reminder.metainfo.xml" }
            && history.contains { $0.contains(id) }
    }

    @Test func noShownTextNamesAProtocolInterfaceOrLibrary() throws {
        let template = try Catalogs.entries("icare.pot")
        let dutch = try Catalogs.entries("nl.po")
        let history = try Self.releasedHistory()
        #expect(template.count > 400 && dutch.count == template.count, "\(template.count) texts, \(dutch.count) in Dutch")
        #expect(!history.isEmpty, "no released history read from NEWS and NEWS.released")
        var found: [String] = []
        var checked = 0
        for entry in template where !Self.isReleasedHistory(entry, history: history) {
            checked += 1
            let place = entry.references.first ?? "?"
            for english in entry.english {
                found += Self.identifiers(in: english).map { "\(place), English: \($0)" }
            }
            let translated = dutch.first { $0.english == entry.english && $0.context == entry.context }
            #expect(translated != nil, "no Dutch entry for '\(entry.english[0])'")
            for text in translated?.translations ?? [] {
                found += Self.identifiers(in: text).map { "\(place), Dutch: \($0)" }
            }
        }
        #expect(checked > 400, "only \(checked) texts checked")
        #expect(found.isEmpty, "\n\(found.joined(separator: "\n"))")
    }

    @Test func theCheckFindsEachKindAndLetsNamesPeopleKnowPass() {
        for sample in ["Sees the screen lock and idle time through wayland ext_idle_notifier_v1.",
                       "Sees the screen lock and idle time through logind, org.gnome.ScreenSaver.",
                       "iCare’s D-Bus interface is not installed (org.icare.Reminder.xml); install iCare again.",
                       "the compositor's ext-idle-notify-v1", "through org_kde_kwin_idle", "no wl_seat",
                       "Still asking the session bus for a notification server.", "De bus kon iCare niet starten.",
                       "Kon de sessiebus niet bereiken.", "No StatusNotifierWatcher on the bus", "played through libcanberra",
                       "Mutter's IdleMonitor", "A locked screen is not seen: the desktop's portal does not say.",
                       "het portaal van het bureaublad", "xdg-desktop-portal-gtk", "seen through Plasma's PowerDevil",
                       "the object /org/icare/Reminder", "a video's idle inhibitor", "the MPRIS player"] {
            #expect(!Self.identifiers(in: sample).isEmpty, "'\(sample)' passes")
        }
        for sample in ["Follows the do-not-disturb of GNOME, Plasma.", "Started by systemd, as icared.service.",
                       "Sees calls, screen shares and full screen through PipeWire, GNOME.",
                       "iCare is not running; start it with 'systemctl --user start icared' (or run 'icared').",
                       "none linked yet (pair one in KDE Connect or GSConnect)", "In the top bar, drawn by iCare's GNOME Shell extension.",
                       "AppIndicator and KStatusNotifierItem Support", "Busy: in a call or a video.", "Inside the Flatpak's sandbox",
                       "A locked screen is not seen: this desktop does not tell apps in a sandbox.",
                       "Sees when you step away or lock the screen: time away counts as a rest.",
                       "iCare ziet een vergrendeld scherm niet: deze desktop meldt het niet aan apps in een sandbox.",
                       "A duration such as 90s, 5m or 1h30m", "icarectl set PhoneReminders on", "Print JSON (the shapes are in icarectl(1))"] {
            let found = Self.identifiers(in: sample)
            #expect(found.isEmpty, "'\(sample)': \(found)")
        }
    }
}
