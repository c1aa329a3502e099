// swift-tools-version:6.0
// iCare for Linux — Copyright (c) 2026 iCare for Linux contributors.
// SPDX-License-Identifier: MIT (see LICENSE).
import PackageDescription
#if canImport(Glibc)
import Glibc
#endif

// iCare for Linux: an eye-break reminder service on the session bus.
// No third-party packages: system C libraries (libdbus-1, libsystemd,
// libwayland-client, libpipewire-0.3) and the toolchain's own modules. The daemon and its libraries import
// Glibc only (no Foundation) to stay small; tests may use Foundation.
/// libpipewire-0.3's header folders (`pkg-config --cflags-only-I libpipewire-0.3` on Debian and Ubuntu).
let pipeWireIncludes = ["/usr/include/pipewire-0.3", "/usr/include/spa-0.2"]

/// The service's targets are compiled without the implicit `_StringProcessing` import: that module
/// (Regex, and `String.contains(String)`) would link 0.9 MB of code into `icared`. See
/// docs/architecture.md, "How icared is linked and what it keeps in memory".
/// In release builds each function gets a section of its own, so that the link can drop the unused
/// ones and place the ones the service runs together (`serviceLinking`).
let lean: [SwiftSetting] = [
    .unsafeFlags(["-Xfrontend", "-disable-implicit-string-processing-module-import"]),
    .unsafeFlags(["-Xfrontend", "-function-sections"], .when(configuration: .release)),
]

/// Packed relative relocations (DT_RELR) need glibc 2.36 or newer at run time (Debian 12, Ubuntu 22.10).
let packedRelocations: Bool = {
    #if canImport(Glibc)
    var text = [CChar](repeating: 0, count: 64)  // "glibc 2.36"
    guard confstr(Int32(_CS_GNU_LIBC_VERSION), &text, text.count) > 0 else { return false }
    let words = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    let version = words.split(separator: " ").last?.split(separator: ".").compactMap { Int($0) } ?? []
    return version.count >= 2 && (version[0], version[1]) >= (2, 36)
    #else
    return false
    #endif
}()

/// Whether lld is there for the toolchain's clang: beside `swift` (the swift.org tarball has it) or on PATH.
/// Without it the link keeps what the default linker can do (no ordering, no packed relocations).
let lldAvailable: Bool = {
    #if canImport(Glibc)
    let path = (getenv("PATH").map { String(cString: $0) } ?? "").split(separator: ":").map(String.init)
    func exists(_ file: String) -> Bool { access(file, X_OK) == 0 }
    func realFolder(_ file: String) -> String? {
        guard let resolved = realpath(file, nil) else { return nil }
        defer { free(resolved) }
        let text = String(cString: resolved)
        return text.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
    }
    return path.contains { dir in
        exists(dir + "/ld.lld") || (exists(dir + "/swift") && realFolder(dir + "/swift").map { exists($0 + "/ld.lld") } == true)
    }
    #else
    return false
    #endif
}()

/// How the release `icared` is linked (built with `--static-swift-stdlib`, see scripts/products.sh):
/// with lld, packed relocations, no exported symbols, libstdc++ linked in statically through the
/// linker script in Sources/icared/link, and the functions it runs placed together
/// (hot-functions.txt there, written by scripts/hot-functions). Same docs section.
let linkFolder = "\(Context.packageDirectory)/Sources/icared/link"
let serviceLinking: [LinkerSetting] = [
    .unsafeFlags(
        ["-Xlinker", "--no-export-dynamic", "-L", linkFolder]
            + (lldAvailable ? ["-use-ld=lld", "-Xlinker", "--symbol-ordering-file=\(linkFolder)/hot-functions.txt",
                               "-Xlinker", "--no-warn-symbol-ordering"] : [])
            + (lldAvailable && packedRelocations ? ["-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"] : []),
        .when(configuration: .release)
    ),
]

/// How the release `icarectl` and `icare` are linked: with lld too where it is there. Debian 13's
/// Swift links with GNU ld otherwise, which gave these two no GNU_RELRO segment despite `-z relro`
/// (lintian's hardening-no-relro); lld lays it out.
let clientLinking: [LinkerSetting] = [.unsafeFlags(lldAvailable ? ["-use-ld=lld"] : [], .when(configuration: .release))]

/// libadwaita's and GTK 4's header folders, from `pkg-config --cflags-only-I libadwaita-1` (the folders
/// differ by architecture). Not through the system library's pkgConfig: GTK's cflags carry -pthread and
/// -msse flags, which SwiftPM drops with a warning on every build; the folders are given to the app instead.
/// SwiftPM caches this answer with the manifest: scripts/deps.sh clears that cache after it installs packages.
let adwaitaIncludes: [String] = {
    #if canImport(Glibc)
    guard let pipe = popen("pkg-config --cflags-only-I libadwaita-1 2>/dev/null", "r") else { return [] }
    var text = "", buffer = [CChar](repeating: 0, count: 4096)
    while fgets(&buffer, Int32(buffer.count), pipe) != nil {
        text += String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
    pclose(pipe)
    return text.split(whereSeparator: { $0 == " " || $0 == "\n" }).filter { $0.hasPrefix("-I") }.map { String($0.dropFirst(2)) }
    #else
    return []
    #endif
}()

let package = Package(
    name: "icare",
    products: [
        .executable(name: "icared", targets: ["icared"]),
        .executable(name: "icarectl", targets: ["icarectl"]),
        .executable(name: "icare", targets: ["icare"]),
    ],
    targets: [
        .systemLibrary(
            name: "CDBus",
            pkgConfig: "dbus-1",
            providers: [.apt(["libdbus-1-dev"])]
        ),
        .systemLibrary(
            name: "CSystemd",
            pkgConfig: "libsystemd",
            providers: [.apt(["libsystemd-dev"])]
        ),
        // The Wayland client library, for the compositor's idle protocols.
        .systemLibrary(
            name: "CWayland",
            pkgConfig: "wayland-client",
            providers: [.apt(["libwayland-dev"])]
        ),
        // Client glue for ext-idle-notify-v1 and org_kde_kwin_idle, generated
        // by wayland-scanner and kept in the repository (scripts/wayland-protocols).
        .target(name: "CWaylandProtocols", dependencies: ["CWayland"]),
        // PipeWire's client library (libpipewire-0.3-dev), for the camera, microphone and screen-cast
        // watch in Busy. Not through pkgConfig: its cflags carry -D_REENTRANT, which SwiftPM drops
        // with a warning on every build; the two include folders are given to Busy instead.
        .systemLibrary(name: "CPipeWire"),
        // libcanberra's header (libcanberra-dev), for its types and property names. Not linked and not
        // through pkgConfig (its cflags carry -D_REENTRANT, like PipeWire's): `Sound` opens the library
        // with dlopen only while a sound plays, so an idle icared has none of it in memory.
        .systemLibrary(name: "CCanberra"),
        // glibc's gettext and locale data (libintl.h is part of glibc).
        .systemLibrary(name: "CIntl"),
        .target(name: "Localization", dependencies: ["CIntl"], swiftSettings: lean),
        .target(name: "SystemdKit", dependencies: ["CSystemd"], swiftSettings: lean),
        .target(name: "DBusKit", dependencies: ["CDBus", "SystemdKit"], swiftSettings: lean),
        // Files with nothing of iCare's engine: atomic whole-file writes, directories, the XDG paths, and the
        // desktop's formats (dconf's GVDB database, GVariant, Qt's lock file). Below every desktop watcher, so
        // that what only reads the desktop never depends on ReminderCore (DocsTests' TargetLayerTests hold it).
        .target(name: "FileKit", swiftSettings: lean),
        .target(name: "ReminderCore", dependencies: ["Localization"], swiftSettings: lean),
        // iCare's own files, in the engine's types: the config file, the break history and the saved schedule.
        .target(name: "ICareFiles", dependencies: ["FileKit", "ReminderCore"], swiftSettings: lean),
        // What several desktop watchers share: following a bus name's owner, decoding PropertiesChanged,
        // the dconf database (GSettings keys) and a log that says each provider's problem once.
        .target(name: "DesktopWatch", dependencies: ["DBusKit", "SystemdKit", "FileKit"], swiftSettings: lean),
        .target(name: "DoNotDisturb", dependencies: ["DBusKit", "SystemdKit", "FileKit", "DesktopWatch"], swiftSettings: lean),
        // Calls, screen shares and videos: PipeWire's camera, microphone and screen-cast streams and the
        // desktop's idle inhibitors, summed into one busy state.
        .target(
            name: "Busy",
            dependencies: ["DBusKit", "SystemdKit", "DesktopWatch", "CPipeWire"],
            swiftSettings: lean + [.unsafeFlags(pipeWireIncludes.flatMap { ["-Xcc", "-I\($0)"] })]
        ),
        // GNOME's own eyesight breaks (org.gnome.desktop.break-reminders), read from the shared dconf
        // database, and a GNOME break taken (org.gnome.Shell.ScreenTime).
        .target(name: "DesktopBreaks", dependencies: ["DBusKit", "DesktopWatch", "FileKit", "SystemdKit"], swiftSettings: lean),
        // Event sounds through libcanberra, each in a short-lived process of its own (the end of a break,
        // a reminder) where the notification server does not play them.
        .target(name: "Sound", dependencies: ["CCanberra", "SystemdKit", "ReminderCore", "DesktopWatch", "FileKit"], swiftSettings: lean),
        // Phones linked by KDE Connect and GSConnect: which can be reminded, and one ping each with a reminder.
        .target(name: "Phones", dependencies: ["DBusKit", "SystemdKit", "DesktopWatch", "FileKit", "ReminderCore"], swiftSettings: lean),
        // The phone as a remote: iCare's Start, Snooze, Skip and Pause in each linked phone's Run command list.
        .target(name: "PhoneRemote", dependencies: ["DBusKit", "SystemdKit", "DesktopWatch", "FileKit", "ReminderCore", "Phones"], swiftSettings: lean),
        .target(name: "WaylandIdle", dependencies: ["CWayland", "CWaylandProtocols", "SystemdKit"], swiftSettings: lean),
        .target(name: "Presence", dependencies: ["DBusKit", "SystemdKit", "WaylandIdle", "DesktopWatch"], swiftSettings: lean),
        // Starting at login from the Flatpak sandbox, through the Background portal.
        .target(name: "Autostart", dependencies: ["DBusKit", "DesktopWatch"], swiftSettings: lean),
        // The ring drawn in pure Swift, and what it shows from the engine's status: the panel's item and the app draw it.
        .target(name: "RingDrawing", dependencies: ["ReminderCore"], swiftSettings: lean),
        // The status item in the panel: the StatusNotifierItem and its menu, showing the ring.
        .target(name: "StatusItem", dependencies: ["DBusKit", "SystemdKit", "ReminderCore", "Localization", "RingDrawing"], swiftSettings: lean),
        // What icared can see on this desktop, in words: the Capabilities property (icarectl doctor reads it).
        .target(name: "DesktopReport", dependencies: ["Localization"], swiftSettings: lean),
        .target(
            name: "ReminderService",
            dependencies: ["ReminderCore", "FileKit", "ICareFiles", "DBusKit", "SystemdKit", "DoNotDisturb", "DesktopWatch", "Presence", "Busy", "DesktopBreaks", "Localization", "StatusItem", "Sound", "Phones", "PhoneRemote", "DesktopReport"],
            swiftSettings: lean
        ),
        .executableTarget(
            name: "icared", dependencies: ["ReminderService"], exclude: ["link"],
            swiftSettings: lean, linkerSettings: serviceLinking
        ),
        // The client of org.icare.Reminder that icarectl and the app share: the proxy, the live feed, the status, times.
        .target(name: "ReminderClient", dependencies: ["DBusKit", "SystemdKit", "ReminderCore", "Localization", "DesktopReport"], swiftSettings: lean),
        .target(name: "ICareCLI", dependencies: ["ReminderClient", "DBusKit", "SystemdKit", "ReminderCore", "Localization"], swiftSettings: lean),
        .executableTarget(name: "icarectl", dependencies: ["ICareCLI"], swiftSettings: lean, linkerSettings: clientLinking),
        // GTK 4 and libadwaita (libadwaita-1-dev pulls in libgtk-4-dev), for the app.
        .systemLibrary(name: "CAdwaita"),
        // The app: a window for the service (home view, preferences), a client like icarectl.
        .executableTarget(name: "icare", dependencies: ["CAdwaita", "ReminderClient", "RingDrawing", "DBusKit", "SystemdKit", "ReminderCore", "Localization",
                                                        "FileKit", "ICareFiles", "DesktopWatch", "Autostart"],
                         swiftSettings: [.unsafeFlags(adwaitaIncludes.flatMap { ["-Xcc", "-I\($0)"] })], linkerSettings: clientLinking),
        .executableTarget(name: "icare-bench", dependencies: ["DBusKit", "SystemdKit", "RingDrawing"]),
        // Helpers shared by the test targets: private buses, subprocesses, bounded waits.
        .target(name: "TestSupport", path: "Tests/TestSupport", exclude: ["fake-phone.py", "notification-recorder.py"]),
        // A loop on its own thread and fake bus programs, for tests that run bus peers in-process.
        .target(name: "LoopSupport", dependencies: ["DBusKit", "SystemdKit", "TestSupport"], path: "Tests/LoopSupport"),
        // Scratch folders and fixture files, for the tests of FileKit and ICareFiles.
        .target(name: "FileSupport", path: "Tests/FileSupport"),
        .testTarget(name: "LocalizationTests", dependencies: ["Localization", "CIntl"]),
        .testTarget(name: "ReminderCoreTests", dependencies: ["ReminderCore"]),
        .testTarget(name: "FileKitTests", dependencies: ["FileKit", "FileSupport"]),
        .testTarget(name: "ICareFilesTests", dependencies: ["ICareFiles", "FileKit", "ReminderCore", "FileSupport"]),
        .testTarget(name: "SystemdKitTests", dependencies: ["SystemdKit"]),
        .testTarget(name: "DBusKitTests", dependencies: ["DBusKit", "SystemdKit", "TestSupport", "LoopSupport"]),
        .testTarget(name: "DoNotDisturbTests", dependencies: ["DoNotDisturb", "DesktopWatch", "DBusKit", "SystemdKit", "TestSupport", "LoopSupport"]),
        .testTarget(name: "PresenceTests", dependencies: ["Presence", "DBusKit", "SystemdKit", "TestSupport", "LoopSupport"]),
        .testTarget(name: "BusyTests", dependencies: ["Busy", "DBusKit", "SystemdKit", "TestSupport", "LoopSupport"]),
        .testTarget(name: "WaylandIdleTests", dependencies: ["WaylandIdle", "CWayland", "SystemdKit", "TestSupport", "LoopSupport"]),
        .testTarget(name: "StatusItemTests", dependencies: ["StatusItem", "RingDrawing", "ReminderCore", "DBusKit"]),
        .testTarget(name: "RingDrawingTests", dependencies: ["RingDrawing", "ReminderCore"]),
        .testTarget(name: "DesktopReportTests", dependencies: ["DesktopReport"]),
        .testTarget(name: "PhonesTests", dependencies: ["Phones", "DBusKit", "DesktopWatch"]),
        .testTarget(name: "PhoneRemoteTests", dependencies: ["PhoneRemote", "FileKit", "TestSupport"]),
        .testTarget(name: "SoundTests", dependencies: ["Sound", "ReminderCore", "SystemdKit"]),
        .testTarget(name: "ICareCLITests", dependencies: ["ICareCLI", "TestSupport"]),
        // The app (icare) on Xvfb against the real icared, through the accessibility tree.
        .testTarget(name: "AppTests", dependencies: ["TestSupport", "LoopSupport"]),
        .testTarget(name: "IntegrationTests", dependencies: ["ReminderCore", "DBusKit", "SystemdKit", "TestSupport", "LoopSupport"]),
        // iCare as installed, on a real headless KDE Plasma 5.27 (X11 and Wayland): not part of IntegrationTests,
        // whose tests CI repeats under sanitizers.
        .testTarget(name: "PlasmaTests", dependencies: ["TestSupport"]),
        // iCare as installed on a real headless GNOME Shell 43 with the AppIndicator extension (not in
        // IntegrationTests: the sanitizer runs repeat those; this suite runs once, in the plain `swift test`).
        .testTarget(name: "GnomeShellTests", dependencies: ["TestSupport"]),
        // The README and the manual in docs/: links and anchors resolve, and the README's commands run.
        .testTarget(name: "DocsTests", dependencies: ["TestSupport"]),
        // iCare's GNOME Shell extension (gnome-extension/): its lint (eslint), metadata.json, and its ring's
        // faces (ring.js under gjs) against the panel item's.
        .testTarget(name: "ShellExtensionTests", dependencies: ["RingDrawing", "ReminderCore", "TestSupport"]),
        // iCare's .deb (ICARE_DEB) in Debian 13 and testing roots (scripts/desktop-root), on GNOME Shell 48 / 50
        // and Plasma 6.3 / 6.7: a stage of scripts/test after the package test, left out of the main run.
        .testTarget(name: "RootDesktopTests", dependencies: ["TestSupport"]),
        // iCare's Flatpak: the manifest and flatpak/finish-args, and the bundles of scripts/flatpak (ICARE_FLATPAK_BUNDLES)
        // run with the real flatpak on a private bus: a stage of scripts/test of its own, left out of the main run.
        .testTarget(name: "FlatpakTests", dependencies: ["TestSupport"]),
        .testTarget(name: "AutostartTests", dependencies: ["Autostart", "DBusKit", "SystemdKit", "TestSupport", "LoopSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
