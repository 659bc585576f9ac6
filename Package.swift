// swift-tools-version: 6.2
// SPDX-License-Identifier: Apache-2.0
import PackageDescription

// The layers, from the bottom (docs/architecture.md): libdbus; the bus binding; the interface; the domain; the
// service and the client library; what the desktop shows; the three programs. The release build's flags are not
// here: `packaging/build-release.sh` passes them to `swift build`.
let package = Package(
    name: "netactivity",
    products: [
        .executable(name: "netactivityd", targets: ["netactivityd"]),
        .executable(name: "netactivity", targets: ["netactivity"]),
        .executable(name: "netactivity-tray", targets: ["netactivity-tray"]),
        .library(name: "NetworkActivityClient", targets: ["NetworkActivityClient"]),
        // For the benchmark's own package (Benchmarks/) and nothing else: the harness that runs the daemon on a
        // private bus, and the layers it speaks.
        .library(name: "ServiceHarness",
                 targets: ["ServiceHarness", "DBusKit", "NetworkActivityInterface", "ProgramSupport"]),
        // For the benchmark too: the kernel's counting, whose smallest program it weighs the service's against.
        .library(name: "TrafficCounters", targets: ["TrafficCounters"]),
        // And the domain, whose usage file the benchmark fills with 90 days of 200 apps.
        .library(name: "NetworkActivity", targets: ["NetworkActivity"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
        // `swift package generate-documentation --target NetworkActivityClient`: the library's DocC catalog.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // What every layer shares: the clocks, and the programs' version, options (the daemon's and the tray's) and
        // log. No C, no D-Bus.
        .target(name: "ProgramSupport"),
        // libdbus, the bus layer, as a system library, with the few glibc calls an event loop needs that Swift's
        // Glibc module leaves out (signalfd, timerfd, eventfd, malloc_trim).
        .systemLibrary(name: "CDBus", pkgConfig: "dbus-1", providers: [.apt(["libdbus-1-dev"])]),
        // The bus binding: a safe Swift layer over libdbus (names, messages, the connection and its loop, objects
        // served from declarations, calls that tasks await). Knows nothing of activities.
        .target(name: "DBusKit", dependencies: ["CDBus", "ProgramSupport"]),
        // glibc's gettext, which Swift's Glibc module leaves out, and the language a program speaks to a person
        // with it: translated texts, plural forms, and the locale's numbers and times (docs/translating.md).
        .systemLibrary(name: "CGettext"),
        .target(name: "Localization", dependencies: ["CGettext", "ProgramSupport"]),
        // The kernel's per-app byte counts: BPF programs written as instructions, attached to the cgroup v2 tree
        // through links, and the ring buffer that wakes the service (docs/netactivityd.md, "Traffic"). No D-Bus.
        .systemLibrary(name: "CKernelCounters"),
        .target(name: "TrafficCounters", dependencies: ["CKernelCounters", "ProgramSupport"]),
        // The contract of org.example.NetworkActivity on the bus: its members declared once (`ServiceMembers`), the
        // names, error names, records, and the calls built from the declarations, shared by the service and its
        // clients.
        .target(name: "NetworkActivityInterface", dependencies: ["DBusKit", "ProgramSupport"]),
        // The domain: activities, owners, deadlines, limits and the visibility policy. No C, no D-Bus.
        .target(
            name: "NetworkActivity",
            dependencies: ["ProgramSupport", .product(name: "HeapModule", package: "swift-collections")]
        ),
        // The service: the domain served on the bus.
        .target(
            name: "NetworkActivityService",
            dependencies: ["CDBus", "DBusKit", "NetworkActivity", "NetworkActivityInterface", "ProgramSupport",
                           "TrafficCounters"],
            resources: [.embedInCode("org.example.NetworkActivity.xml"), .embedInCode("org.example.NetworkActivity.Usage.xml"),
                        .embedInCode("org.example.NetworkActivity.Pause.xml"),
                        .embedInCode("org.example.NetworkActivity.Limits.xml"),
                        .embedInCode("org.example.NetworkActivity.Plans.xml")]
        ),
        // The Swift programs' way to the service: activity tokens, scopes and a state monitor.
        .target(name: "NetworkActivityClient", dependencies: ["DBusKit", "NetworkActivityInterface", "ProgramSupport"]),
        // What the desktop shows: the indicator's look and the words for the client library's activities, the
        // StatusNotifierItem with its menu, and notifications. Calls no service of its own.
        .target(
            name: "DesktopIndicator",
            dependencies: ["DBusKit", "Localization", "NetworkActivityClient", "NetworkActivityInterface",
                           "ProgramSupport"],
            resources: [.embedInCode("org.kde.StatusNotifierItem.xml"), .embedInCode("com.canonical.dbusmenu.xml")]
        ),
        .executableTarget(name: "netactivityd", dependencies: ["NetworkActivityService", "ProgramSupport"]),
        // The command, in a library of its own so that a fuzz target can read command lines with it; the program
        // only calls it.
        .target(
            name: "NetActivityCommand",
            dependencies: [
                "CDBus", "DBusKit", "DesktopIndicator", "Localization", "NetworkActivityClient", "ProgramSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "netactivity", dependencies: ["NetActivityCommand"]),
        .executableTarget(
            name: "netactivity-tray",
            dependencies: ["DBusKit", "DesktopIndicator", "Localization", "NetworkActivityClient",
                           "NetworkActivityInterface", "ProgramSupport"]
        ),

        // What the integration tests and the benchmark (a package of its own, Benchmarks/) run the daemon with: a
        // private bus, the daemon's launcher, a raw client and a signal listener.
        .target(
            name: "ServiceHarness", dependencies: ["DBusKit", "NetworkActivityInterface"], path: "Tests/ServiceHarness"
        ),

        // The fuzz targets (docs/reliability.md, "Fuzzing"): `bash Tests/fuzz.sh` builds them with libFuzzer; the
        // plain build replays their corpora (Tests/Fuzzing/Corpus), which the test suite runs.
        .target(name: "FuzzingSupport", dependencies: ["CDBus", "DBusKit", "ProgramSupport"], path: "Tests/Fuzzing/Support"),
        .executableTarget(
            name: "fuzz-service-object",
            dependencies: ["DBusKit", "FuzzingSupport", "NetworkActivity", "NetworkActivityInterface",
                           "NetworkActivityService", "ProgramSupport", "TestSupport"],
            path: "Tests/Fuzzing/ServiceObject"
        ),
        .executableTarget(
            name: "fuzz-tray-objects", dependencies: ["DBusKit", "DesktopIndicator", "FuzzingSupport"],
            path: "Tests/Fuzzing/TrayObjects"
        ),
        .executableTarget(
            name: "fuzz-activity-table",
            dependencies: ["DBusKit", "FuzzingSupport", "NetworkActivity", "NetworkActivityInterface", "ProgramSupport",
                           "TestSupport"],
            path: "Tests/Fuzzing/ActivityTable"
        ),
        .executableTarget(
            name: "fuzz-outside-text",
            dependencies: ["DBusKit", "DesktopIndicator", "FuzzingSupport", "NetActivityCommand", "NetworkActivity",
                           "NetworkActivityService", "ProgramSupport", "TestSupport"],
            path: "Tests/Fuzzing/OutsideText"
        ),

        // Tests: one target per layer, and the integration tests against a private dbus-daemon.
        // What the unit tests share: a clock that moves only when a test moves it, served objects called in memory
        // as the bus would, and a declared interface compared with its XML in dbus/.
        .target(name: "TestSupport", dependencies: ["DBusKit", "ProgramSupport"], path: "Tests/TestSupport"),
        .testTarget(name: "DBusKitTests", dependencies: ["DBusKit", "ServiceHarness", "TestSupport"]),
        .testTarget(
            name: "NetworkActivityTests", dependencies: ["NetworkActivity", "NetworkActivityInterface", "TestSupport"]
        ),
        .testTarget(
            name: "NetworkActivityServiceTests",
            dependencies: ["DBusKit", "NetworkActivity", "NetworkActivityInterface", "NetworkActivityService",
                           "ProgramSupport", "TestSupport"]
        ),
        .testTarget(name: "ProgramSupportTests", dependencies: ["ProgramSupport"]),
        .testTarget(name: "LocalizationTests", dependencies: ["Localization"]),
        .testTarget(
            name: "DesktopIndicatorTests",
            dependencies: ["DBusKit", "DesktopIndicator", "NetworkActivityClient", "NetworkActivityInterface", "ProgramSupport",
                           "TestSupport"]
        ),
        // The command's own reading of its plain forms against swift-argument-parser's.
        .testTarget(
            name: "NetActivityCommandTests",
            dependencies: ["NetActivityCommand", "NetworkActivityClient",
                           .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .testTarget(
            name: "IntegrationTests",
            dependencies: ["DBusKit", "DesktopIndicator", "NetworkActivityClient", "NetworkActivityInterface",
                           "ProgramSupport", "ServiceHarness", "TestSupport", "TrafficCounters", "netactivity", "netactivityd",
                           "netactivity-tray"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
