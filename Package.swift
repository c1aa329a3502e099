// swift-tools-version:6.0
// iCare for Linux — Copyright (c) 2026 iCare for Linux contributors.
// SPDX-License-Identifier: MIT (see LICENSE).
import PackageDescription

// iCare for Linux: an eye-break reminder service on the session bus.
// No third-party packages: two system C libraries (libdbus-1, libsystemd)
// and the toolchain's own modules. The daemon and its libraries import
// Glibc only (no Foundation) to stay small; tests may use Foundation.
/// libpipewire-0.3's header folders (`pkg-config --cflags-only-I libpipewire-0.3` on Debian and Ubuntu).
let pipeWireIncludes = ["/usr/include/pipewire-0.3", "/usr/include/spa-0.2"]

let package = Package(
    name: "icare",
    products: [
        .executable(name: "icared", targets: ["icared"]),
        .executable(name: "icarectl", targets: ["icarectl"]),
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
        // glibc's gettext and locale data (libintl.h is part of glibc).
        .systemLibrary(name: "CIntl"),
        .target(name: "Localization", dependencies: ["CIntl"]),
        .target(name: "SystemdKit", dependencies: ["CSystemd"]),
        .target(name: "DBusKit", dependencies: ["CDBus", "SystemdKit"]),
        .target(name: "ReminderCore", dependencies: ["Localization"]),
        .target(name: "ICareFiles", dependencies: ["ReminderCore"]),
        .target(name: "DoNotDisturb", dependencies: ["DBusKit", "SystemdKit", "ICareFiles"]),
        // Calls, screen shares and videos: PipeWire's camera, microphone and screen-cast streams and the
        // desktop's idle inhibitors, summed into one busy state.
        .target(
            name: "Busy",
            dependencies: ["DBusKit", "SystemdKit", "DoNotDisturb", "CPipeWire"],
            swiftSettings: [.unsafeFlags(pipeWireIncludes.flatMap { ["-Xcc", "-I\($0)"] })]
        ),
        // GNOME's own eyesight breaks (org.gnome.desktop.break-reminders), read with the DND dconf reads,
        // and a GNOME break taken (org.gnome.Shell.ScreenTime).
        .target(name: "DesktopBreaks", dependencies: ["DBusKit", "DoNotDisturb", "ICareFiles", "SystemdKit"]),
        .target(name: "WaylandIdle", dependencies: ["CWayland", "CWaylandProtocols", "SystemdKit"]),
        .target(name: "Presence", dependencies: ["DBusKit", "SystemdKit", "WaylandIdle"]),
        // The status item in the panel: the ring icon, the StatusNotifierItem and its menu.
        .target(name: "StatusItem", dependencies: ["DBusKit", "SystemdKit", "ReminderCore", "Localization"]),
        .target(
            name: "ReminderService",
            dependencies: ["ReminderCore", "ICareFiles", "DBusKit", "SystemdKit", "DoNotDisturb", "Presence", "Busy", "DesktopBreaks", "Localization", "StatusItem"]
        ),
        .executableTarget(name: "icared", dependencies: ["ReminderService"]),
        .target(name: "ICareCLI", dependencies: ["DBusKit", "SystemdKit", "ReminderCore", "Localization"]),
        .executableTarget(name: "icarectl", dependencies: ["ICareCLI"]),
        .executableTarget(name: "icare-bench", dependencies: ["DBusKit", "SystemdKit", "StatusItem"]),
        // Helpers shared by the test targets: private buses, subprocesses, bounded waits.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        // A loop on its own thread and fake bus programs, for tests that run bus peers in-process.
        .target(name: "LoopSupport", dependencies: ["DBusKit", "SystemdKit", "TestSupport"], path: "Tests/LoopSupport"),
        .testTarget(name: "LocalizationTests", dependencies: ["Localization", "CIntl"]),
        .testTarget(name: "ReminderCoreTests", dependencies: ["ReminderCore"]),
        .testTarget(name: "ICareFilesTests", dependencies: ["ICareFiles"]),
        .testTarget(name: "SystemdKitTests", dependencies: ["SystemdKit"]),
        .testTarget(name: "DBusKitTests", dependencies: ["DBusKit", "SystemdKit", "TestSupport", "LoopSupport"]),
        .testTarget(name: "DoNotDisturbTests", dependencies: ["DoNotDisturb", "DBusKit", "SystemdKit", "TestSupport", "LoopSupport"]),
        .testTarget(name: "PresenceTests", dependencies: ["Presence", "DBusKit", "SystemdKit", "TestSupport", "LoopSupport"]),
        .testTarget(name: "BusyTests", dependencies: ["Busy", "DBusKit", "SystemdKit", "TestSupport", "LoopSupport"]),
        .testTarget(name: "WaylandIdleTests", dependencies: ["WaylandIdle", "CWayland", "SystemdKit", "TestSupport", "LoopSupport"]),
        .testTarget(name: "StatusItemTests", dependencies: ["StatusItem", "ReminderCore"]),
        .testTarget(name: "ICareCLITests", dependencies: ["ICareCLI", "TestSupport"]),
        .testTarget(name: "IntegrationTests", dependencies: ["ReminderCore", "DBusKit", "SystemdKit", "TestSupport", "LoopSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
