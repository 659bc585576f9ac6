// swift-tools-version: 6.2
import PackageDescription

/// The daemon's release build is linked for a small resident size (docs/performance.md): the Swift runtime is
/// linked in, so only the parts the daemon uses are ever read; lld packs its relocations (`DT_RELR`) and places
/// the functions that run together on the same pages, in the order of `Sources/netactivityd/link-order.txt`.
///
/// All three executables take the C++ runtime the Swift runtime needs (libstdc++) from its static archive as
/// well: loading the shared one costs a process more than 1.5 million instructions of symbol lookups before `main`,
/// and 0.9 MB of memory. `Sources/LinkedStatically/` holds a link to Debian's archive; the linker searches that
/// folder first for `-lstdc++`, and where the link leads nowhere it takes the shared library as before.
let staticLibstdcxx = ["-L\(Context.packageDirectory)/Sources/LinkedStatically"]
/// libgcc's unwinder from its static archive too: one shared library fewer to load, 7% of a `netactivity begin`.
let staticLibgcc = ["-Xclang-linker", "-static-libgcc"]
/// `-static-stdlib` exports every public symbol of the program's own modules (about 2,600 in the command) for
/// symbolication that never happens here; the Swift runtime's start-up then looks an address up with `dladdr`, which
/// walks them all (70,000 instructions before `main`), and the loader maps the table. Nothing looks symbols up in an
/// executable, so none are exported.
let noExportedSymbols = ["-Xlinker", "--no-export-dynamic"]
let leanDaemonLinking = staticLibstdcxx + staticLibgcc + noExportedSymbols + [
    "-static-stdlib", "-use-ld=lld",
    "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
    "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/Sources/netactivityd/link-order.txt",
    "-Xlinker", "--no-warn-symbol-ordering",
]

/// The tray, which runs all day, is linked the same way with an ordering file of its own
/// (`Sources/netactivity-tray/link-order.txt`).
let leanTrayLinking = staticLibstdcxx + staticLibgcc + noExportedSymbols + [
    "-static-stdlib", "-use-ld=lld",
    "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
    "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/Sources/netactivity-tray/link-order.txt",
    "-Xlinker", "--no-warn-symbol-ordering",
]

/// The command is linked the same way, with the ordering file of its plain forms
/// (`Sources/netactivity/link-order.txt`); swift-argument-parser brings in FoundationEssentials, whose static archive
/// needs two of its own archives named.
let leanClientLinking = staticLibstdcxx + staticLibgcc + noExportedSymbols + [
    "-static-stdlib", "-use-ld=lld",
    "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
    "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/Sources/netactivity/link-order.txt",
    "-Xlinker", "--no-warn-symbol-ordering",
    "-l_FoundationCollections", "-l_FoundationCShims",
]

/// The daemon's code runs on one thread and every test runs it with Swift's dynamic exclusivity checks on (debug
/// builds); the release build leaves them out, since they cost about a tenth of its own instructions per call.
let leanDaemonCode: [SwiftSetting] = [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]

/// The code every program runs as it starts reaches a concrete generic type's metadata through its accessor, not
/// by its mangled name: the runtime's demangler then searches every protocol conformance in the program for the
/// type's requirements, a fifth of a `netactivity begin` and of the daemon's start-up (docs/performance.md).
/// Costs a little code size, and the daemon 77 instructions in a Begin and End pair's 96,000.
let directMetadata: [SwiftSetting] = [
    .unsafeFlags(
        ["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"], .when(configuration: .release)),
]

let package = Package(
    name: "netactivity",
    products: [
        .executable(name: "netactivityd", targets: ["netactivityd"]),
        .executable(name: "netactivity", targets: ["netactivity"]),
        .executable(name: "netactivity-bench", targets: ["netactivity-bench"]),
        .executable(name: "netactivity-tray", targets: ["netactivity-tray"]),
        .library(name: "NetworkActivityClient", targets: ["NetworkActivityClient"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
        // `swift package generate-documentation --target NetworkActivityClient`: the library's DocC catalog.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // libdbus, the bus layer, as a system library.
        .systemLibrary(
            name: "CDBus",
            pkgConfig: "dbus-1",
            providers: [.apt(["libdbus-1-dev"])]
        ),
        // glibc's signalfd and malloc_trim, which Swift's Glibc module leaves out.
        .systemLibrary(name: "CGlibcExtras"),
        // The process's arguments for Swift's CommandLine from glibc, in place of the Swift runtime's search of
        // /proc/self/maps at every start (ProcessArguments.c).
        .target(name: "ProcessArguments", cSettings: [.unsafeFlags(["-gdwarf-4"])]),
        // netactivity's version, the one string every program's --version prints.
        .target(name: "PackageVersion"),
        // The command line of a program that takes only options (the daemon's and the tray's), without
        // swift-argument-parser's memory.
        .target(name: "CommandLineOptions", swiftSettings: directMetadata),
        // The programs' log: lines on standard error, with the journal's priority prefixes when systemd connects it to
        // the journal.
        .target(name: "StandardErrorLogging", swiftSettings: directMetadata),
        // A safe Swift layer over libdbus; knows nothing of activities.
        .target(
            name: "DBusKit",
            dependencies: ["CDBus", "CGlibcExtras"],
            swiftSettings: leanDaemonCode + directMetadata
        ),
        // DBusKit for Swift concurrency: a connection that threads and tasks share, served on a thread of its own,
        // whose calls tasks await. Apart from DBusKit so that the daemon, which awaits nothing, does not link Swift's
        // concurrency runtime and libdispatch (docs/performance.md).
        .target(
            name: "DBusKitAsync",
            dependencies: ["CDBus", "CGlibcExtras", "DBusKit"],
            swiftSettings: directMetadata
        ),
        // The domain: activities, owners, deadlines, limits and the visibility policy. No C, no D-Bus.
        .target(
            name: "NetworkActivity",
            dependencies: [.product(name: "HeapModule", package: "swift-collections")],
            swiftSettings: leanDaemonCode + directMetadata
        ),
        // The contract of org.example.NetworkActivity on the bus: names, error names and records, shared by the
        // service and its clients.
        .target(
            name: "NetworkActivityInterface",
            dependencies: ["DBusKit"],
            swiftSettings: directMetadata
        ),
        // Binds the domain to the bus.
        .target(
            name: "NetworkActivityService",
            dependencies: [
                "CGlibcExtras",
                "DBusKit",
                "NetworkActivity",
                "NetworkActivityInterface",
                "StandardErrorLogging",
            ],
            resources: [.embedInCode("org.example.NetworkActivity.xml")],
            swiftSettings: leanDaemonCode + directMetadata
        ),
        .executableTarget(
            name: "netactivityd",
            dependencies: [
                "CommandLineOptions",
                "DBusKit",
                "NetworkActivity",
                "NetworkActivityService",
                "PackageVersion",
                "ProcessArguments",
                "StandardErrorLogging",
            ],
            exclude: ["link-order.txt", "update-link-order.sh"],
            swiftSettings: directMetadata,
            linkerSettings: [.unsafeFlags(leanDaemonLinking, .when(configuration: .release))]
        ),
        // The Swift programs' way to the service: activity tokens, scopes and a state monitor.
        .target(
            name: "NetworkActivityClient",
            dependencies: ["DBusKit", "DBusKitAsync", "NetworkActivityInterface"],
            swiftSettings: directMetadata
        ),
        // What people see of the indicator: summaries, the tray's appearance and its self-drawn icon. No D-Bus.
        .target(name: "IndicatorPresentation", swiftSettings: directMetadata),
        .executableTarget(
            name: "netactivity",
            dependencies: [
                "DBusKit",
                "DesktopProtocols",
                "IndicatorPresentation",
                "NetworkActivityClient",
                "PackageVersion",
                "ProcessArguments",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            exclude: ["link-order.txt", "update-link-order.sh", "link-order-session.sh"],
            swiftSettings: directMetadata,
            linkerSettings: [.unsafeFlags(leanClientLinking, .when(configuration: .release))]
        ),
        // The desktop's protocols a tray icon speaks: StatusNotifierItem and Notifications. Knows nothing of
        // activities.
        .target(
            name: "DesktopProtocols",
            dependencies: ["DBusKit", "StandardErrorLogging"],
            resources: [.embedInCode("org.kde.StatusNotifierItem.xml"), .embedInCode("com.canonical.dbusmenu.xml")],
            swiftSettings: directMetadata
        ),
        .executableTarget(
            name: "netactivity-tray",
            dependencies: [
                "CommandLineOptions",
                "DBusKit",
                "DesktopProtocols",
                "IndicatorPresentation",
                "NetworkActivityClient",
                "NetworkActivityInterface",
                "PackageVersion",
                "ProcessArguments",
                "StandardErrorLogging",
            ],
            exclude: ["link-order.txt", "update-link-order.sh"],
            swiftSettings: directMetadata,
            linkerSettings: [.unsafeFlags(leanTrayLinking, .when(configuration: .release))]
        ),
        // What the tests and the benchmark run the daemon with: a private bus, the daemon's launcher, a raw client
        // and a signal listener.
        .target(
            name: "ServiceHarness",
            dependencies: ["DBusKit", "NetworkActivityInterface"]
        ),
        // Measures the daemon on a private bus (docs/performance.md).
        .executableTarget(
            name: "netactivity-bench",
            dependencies: [
                "DBusKit",
                "NetworkActivityClient",
                "NetworkActivityInterface",
                "PackageVersion",
                "ServiceHarness",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "DBusKitTests",
            dependencies: ["DBusKit", "InMemoryBus", "ServiceHarness"]
        ),
        // Compares a declared interface with its introspection XML in dbus/, for the adapters' contract tests.
        .target(
            name: "InterfaceContract",
            dependencies: ["DBusKit"],
            path: "Tests/InterfaceContract"
        ),
        // Calls served objects in memory, as the bus would, for the adapters' unit tests.
        .target(
            name: "InMemoryBus",
            dependencies: ["DBusKit"],
            path: "Tests/InMemoryBus"
        ),
        .testTarget(
            name: "NetworkActivityServiceTests",
            dependencies: ["DBusKit", "InMemoryBus", "InterfaceContract", "NetworkActivity", "NetworkActivityInterface",
                           "NetworkActivityService", "TestClocks", "StandardErrorLogging"]
        ),
        .testTarget(
            name: "DesktopProtocolsTests",
            dependencies: ["DBusKit", "DesktopProtocols", "InMemoryBus", "InterfaceContract"]
        ),
        .testTarget(
            name: "NetworkActivityTests",
            dependencies: ["NetworkActivity", "TestClocks"]
        ),
        // A clock that moves only when a test moves it, for the domain's tests and the service's.
        .target(
            name: "TestClocks",
            dependencies: ["NetworkActivity"],
            path: "Tests/TestClocks"
        ),
        .testTarget(
            name: "StandardErrorLoggingTests",
            dependencies: ["StandardErrorLogging"]
        ),
        .testTarget(
            name: "IndicatorPresentationTests",
            dependencies: ["IndicatorPresentation"]
        ),
        // The command's own reading of its plain forms against swift-argument-parser's.
        .testTarget(
            name: "NetActivityCommandTests",
            dependencies: ["netactivity", "NetworkActivityClient",
                           .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .testTarget(
            name: "IntegrationTests",
            dependencies: ["DBusKit", "DBusKitAsync", "NetworkActivityClient", "NetworkActivityInterface",
                           "PackageVersion", "ServiceHarness", "netactivity", "netactivityd", "netactivity-bench", "netactivity-tray"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
