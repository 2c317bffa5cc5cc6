// swift-tools-version:6.0
import Foundation
import PackageDescription

/// GTK 4's and libadwaita's header folders, for the window alone, from pkg-config. Not a
/// `pkgConfig:` system library: SwiftPM reads those for every build of every product and
/// warns of GLib's `-pthread` each time (swift-package-manager #10549), and `nudge` must
/// build without GTK. Empty where GTK's development files are missing: then only
/// `nudge-window` fails to build.
/// The window's link: lld, so that relative relocations are packed (2 MB read at each start
/// otherwise), no symbol is exported (9,000 were), and the functions a start runs lie
/// together in the order `scripts/window-order` wrote down (a start kept 12 MB of the
/// program's code resident, its functions being spread over all of it).
let windowLinkFlags = ["-use-ld=lld"] + [
    "-z", "pack-relative-relocs", "--no-export-dynamic",
    "--symbol-ordering-file=" + Context.packageDirectory + "/packaging/nudge-window.order", "--no-warn-symbol-ordering",
].flatMap { ["-Xlinker", $0] }
/// `nudge`'s link: lld with relative relocations packed too. The dynamic loader applied its
/// 95,000 of them at every start, a third of `nudge --version`'s time in it (7.2 million
/// cycles in all, 1.4 million packed): `send` is measured against notify-send.
let commandLinkFlags = ["-use-ld=lld"] + ["-z", "pack-relative-relocs", "--no-export-dynamic"].flatMap { ["-Xlinker", $0] }
/// And in a release, the C++ runtime that Swift's runtime uses (libstdc++, libgcc's unwinder)
/// linked in, as the Swift runtime is: loading the shared libstdc++ was 3,261 symbol lookups
/// at every start, 40 % of the dynamic loader's work (5,348 -> 3,669). packaging/link holds a
/// linker script named libstdc++.so that names GCC's archive; it is searched before GCC's own
/// folder. Only `nudge`: nudge-sync loads libstdc++ anyway (libxml2 links ICU), and two copies
/// in one process are not wanted. A debug build links the shared Swift runtime, which loads it.
let commandReleaseLinkFlags = ["-Xclang-linker", "-static-libgcc", "-Xclang-linker", "-L" + Context.packageDirectory + "/packaging/link"]

let gtkHeaderFlags: [String] = {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/pkg-config")
    process.arguments = ["--cflags-only-I", "libadwaita-1"]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return [] }
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { return [] }
    return text.split(whereSeparator: \.isWhitespace).filter { $0.hasPrefix("-I") }.flatMap { ["-Xcc", String($0)] }
}()

let package = Package(
    name: "nudge",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "nudge", targets: ["nudge"]),
        .executable(name: "nudge-window", targets: ["nudge-window"]),
        .executable(name: "nudge-sync", targets: ["nudge-sync"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CDBus",
            path: "Modules/CDBus",
            pkgConfig: "dbus-1",
            providers: [.apt(["libdbus-1-dev"])]
        ),
        .systemLibrary(name: "CLinux", path: "Modules/CLinux"),
        // GTK 4 and libadwaita, for the window alone: `nudge` never links them.
        .systemLibrary(name: "CAdwaita", path: "Modules/CAdwaita", providers: [.apt(["libadwaita-1-dev"])]),
        .systemLibrary(
            name: "CSQLite",
            path: "Modules/CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .systemLibrary(
            name: "CNcurses",
            path: "Modules/CNcurses",
            providers: [.apt(["libncurses-dev"])]
        ),
        // libcurl and libxml2, for CalDAV sync alone (the transport; the window never links them).
        .systemLibrary(name: "CCurl", path: "Modules/CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CXML", path: "Modules/CXML", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        // Sync's pure core: an object's states, the merge by property, discovery's steps,
        // the WebDAV requests and answers as values. No network, no files.
        .target(name: "NudgeSync", dependencies: ["ICalendar", "NudgeCore", "NudgeCalendar"]),
        // Sync's thin edge: HTTP through curl on the loop, XML through libxml2, passwords in
        // the Secret Service.
        .target(name: "SyncTransport", dependencies: ["NudgeSync", "CCurl", "CXML", "Platform", "DBus"]),
        // A sync carried out: accounts, their calendars, the store's side of each object.
        .target(name: "CalendarSync", dependencies: ["NudgeSync", "SyncTransport", "NudgeStore", "NudgeCalendar", "NudgeCore", "ICalendar", "Platform"]),
        // What both faces show, in words: the list's rows, the status line, the form's schedule. Pure.
        .target(name: "Presentation", dependencies: ["NudgeKit"]),
        // `nudge ui` and the terminal: the screen model and its layout, the keys, curses, the
        // table printer and the terminal's width of text.
        .target(name: "TerminalFace", dependencies: ["Presentation", "NudgeKit", "CNcurses", "Platform"]),
        // RFC 5545 alone: content lines, components, properties; knows nothing of Nudge.
        .target(name: "ICalendar"),
        // What a calendar's event is as a Nudge alert, and back.
        .target(name: "NudgeCalendar", dependencies: ["ICalendar", "NudgeCore"]),
        .target(name: "Platform", dependencies: ["CLinux"]),
        .target(name: "DBus", dependencies: ["CDBus"]),
        .target(name: "DaemonAPI", dependencies: ["DBus", "NudgeCore", "Platform"]),
        .target(
            name: "NudgeKit",
            dependencies: ["Platform", "NudgeCore", "Localization", "DBus", "DaemonAPI", "FreedesktopDelivery", "NudgeStore", "ICalendar", "NudgeCalendar",
                           "NudgeSync"]
        ),
        .target(name: "NudgeCore"),
        .target(name: "Localization", dependencies: ["CLinux", "NudgeCore"]),
        .target(name: "FreedesktopDelivery", dependencies: ["NudgeCore", "DBus", "Platform"]),
        .target(name: "NudgeStore", dependencies: ["NudgeCore", "Platform", "CSQLite", .product(name: "GRDB", package: "GRDB.swift")]),
        .target(
            name: "NudgeDaemon",
            dependencies: [
                "CLinux", "Platform", "NudgeCore", "Localization", "DBus", "DaemonAPI", "FreedesktopDelivery", "NudgeStore", "NudgeKit",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "nudge",
            dependencies: [
                "Platform", "NudgeCore", "Localization", "DBus", "DaemonAPI", "FreedesktopDelivery", "NudgeStore", "NudgeDaemon", "NudgeKit",
                "Presentation", "TerminalFace", "ICalendar", "NudgeCalendar",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            linkerSettings: [.unsafeFlags(commandLinkFlags), .unsafeFlags(commandReleaseLinkFlags, .when(configuration: .release))]
        ),
        // `nudge sync`: its own program, the only one that links libcurl and libxml2.
        .executableTarget(
            name: "nudge-sync",
            dependencies: [
                "NudgeKit", "NudgeCore", "NudgeStore", "NudgeSync", "SyncTransport", "CalendarSync", "Localization", "Platform", "DBus", "DaemonAPI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            linkerSettings: [.unsafeFlags(commandLinkFlags)]
        ),
        .executableTarget(
            name: "nudge-window",
            dependencies: ["CAdwaita", "Presentation", "NudgeKit"],
            // The widget trees (GtkBuilder .ui files), linked in as a GResource by the plugin.
            exclude: ["ui"],
            swiftSettings: [.unsafeFlags(gtkHeaderFlags)],
            // Pango by name: a row's title asks its layout whether it was cut (GTK links it anyway).
            linkerSettings: [.linkedLibrary("pango-1.0"), .unsafeFlags(windowLinkFlags)],
            plugins: ["WindowResources"]
        ),
        // The window's GResource as Swift: glib-compile-resources run on its ui/ folder.
        .executableTarget(name: "resource-embed"),
        .plugin(name: "WindowResources", capability: .buildTool(), dependencies: ["resource-embed"]),
        .target(name: "BenchSupport", path: "bench/Sources/BenchSupport"),
        .executableTarget(
            name: "nudge-bench",
            dependencies: ["NudgeCore", "FreedesktopDelivery", "BenchSupport"],
            path: "bench/Sources/nudge-bench"
        ),
        .executableTarget(
            name: "store-bench",
            dependencies: ["NudgeCore", "NudgeStore", "Platform", "BenchSupport"],
            path: "bench/Sources/store-bench"
        ),
        .executableTarget(
            name: "daemon-bench",
            dependencies: ["NudgeCore", "NudgeStore", "DBus", "Platform", "BenchSupport", "TestSupport"],
            path: "bench/Sources/daemon-bench"
        ),
        .executableTarget(
            name: "soak-bench",
            dependencies: ["NudgeCore", "NudgeStore", "DBus", "BenchSupport"],
            path: "bench/Sources/soak-bench"
        ),
        .executableTarget(
            name: "startup-bench",
            dependencies: ["BenchSupport"],
            path: "bench/Sources/startup-bench"
        ),
        .executableTarget(
            name: "water-bench",
            dependencies: ["NudgeCore", "NudgeStore", "DBus", "BenchSupport"],
            path: "bench/Sources/water-bench"
        ),
        .executableTarget(
            name: "ics-bench",
            dependencies: ["NudgeCore", "NudgeStore", "BenchSupport"],
            path: "bench/Sources/ics-bench"
        ),
        .executableTarget(
            name: "ui-bench",
            dependencies: ["Presentation", "TerminalFace", "NudgeCore", "NudgeStore", "BenchSupport"],
            path: "bench/Sources/ui-bench"
        ),
        .executableTarget(
            name: "phrase-bench",
            dependencies: ["NudgeCore", "BenchSupport", "TestSupport"],
            path: "bench/Sources/phrase-bench"
        ),
        .executableTarget(
            name: "schedule-bench",
            dependencies: ["NudgeCore", "BenchSupport"],
            path: "bench/Sources/schedule-bench"
        ),
        // Every reader of outside input as a function of bytes, with the properties a fuzzer
        // checks (fuzz/README.md); `make fuzz` builds nudge-fuzz with libFuzzer.
        .target(
            name: "FuzzChecks",
            dependencies: ["NudgeCore", "ICalendar", "NudgeCalendar", "DBus", "Localization", "NudgeKit", "Platform", "DaemonAPI",
                           "NudgeSync", "SyncTransport"],
            path: "fuzz/Sources/FuzzChecks"
        ),
        .executableTarget(name: "nudge-fuzz", dependencies: ["FuzzChecks", "BenchSupport"], path: "fuzz/Sources/nudge-fuzz"),
        .testTarget(name: "FuzzCorpusTests", dependencies: ["FuzzChecks"]),
        .testTarget(name: "PlatformTests", dependencies: ["Platform", "TestSupport"]),
        .testTarget(name: "PresentationTests", dependencies: ["Presentation", "NudgeKit", "TestSupport"]),
        .testTarget(name: "TerminalFaceTests", dependencies: ["TerminalFace", "Presentation", "NudgeKit", "TestSupport"]),
        .testTarget(name: "ICalendarTests", dependencies: ["ICalendar"]),
        .testTarget(name: "NudgeSyncTests", dependencies: ["NudgeSync", "CalendarSync", "NudgeCalendar", "NudgeCore", "SyncTransport", "ICalendar", "Platform", "TestSupport"]),
        .testTarget(name: "NudgeCalendarTests", dependencies: ["NudgeCalendar", "ICalendar", "NudgeCore"]),
        .testTarget(name: "LocalizationTests", dependencies: ["Localization", "NudgeCore"]),
        .testTarget(name: "DBusTests", dependencies: ["DBus", "TestSupport"]),
        .testTarget(name: "NudgeCoreTests", dependencies: [
            "NudgeCore", "MemoryDelivery", "TestSupport", .product(name: "PropertyBased", package: "swift-property-based"),
        ]),
        .testTarget(name: "FreedesktopDeliveryTests", dependencies: ["FreedesktopDelivery", "Platform", "TestSupport", "DBus", "NudgeCore"]),
        .testTarget(name: "NudgeStoreTests", dependencies: ["NudgeStore", "NudgeCore", "Platform", "TestSupport", .product(name: "GRDB", package: "GRDB.swift")],
                    resources: [.copy("Fixtures")]),
        .testTarget(name: "DaemonTests", dependencies: ["TestSupport", "DBus", "DaemonAPI", "Platform", "NudgeCore", "NudgeStore", "NudgeDaemon"]),
        // The operations every face calls, and the command line's parsing, in-process.
        .testTarget(name: "NudgeKitTests", dependencies: ["NudgeKit", "nudge", "NudgeCore", "NudgeStore", "TestSupport",
                                                          .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        // The window, driven through AT-SPI on a display of its own.
        .testTarget(name: "WindowTests", dependencies: ["TestSupport"]),
        // nudge itself too: its send reader is held to ArgumentParser's in-process.
        .testTarget(name: "NudgeCLITests", dependencies: ["TestSupport", "DBus", "NudgeCore", "NudgeStore", "nudge",
                                                          .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        .target(name: "TestSupport", dependencies: ["DBus", "Platform", "NudgeCore"], path: "Tests/TestSupport"),
        // The in-memory Delivery: pure, for the core's tests and the benches alike.
        .target(name: "MemoryDelivery", dependencies: ["NudgeCore"], path: "Tests/MemoryDelivery"),
    ],
    swiftLanguageModes: [.v6]
)
