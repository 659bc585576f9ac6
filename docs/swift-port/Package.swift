// swift-tools-version: 6.2
// A measurement, not part of netactivity: the bench's minimal C service ported line by line to Swift, built the
// way the daemon's release build is, to see what the language alone costs beside libdbus (docs/performance.md).
// Build: swift build -c release --package-path docs/swift-port
import PackageDescription

let package = Package(
    name: "swift-port",
    targets: [
        .systemLibrary(name: "CLibdbus", pkgConfig: "dbus-1"),
        .executableTarget(
            name: "swift-port",
            dependencies: ["CLibdbus"],
            swiftSettings: [.unsafeFlags(["-enforce-exclusivity=unchecked"])],
            linkerSettings: [
                .unsafeFlags([
                    "-static-stdlib", "-use-ld=lld", "-Xlinker", "--no-export-dynamic",
                    "-L\(Context.packageDirectory)/../../Sources/LinkedStatically", "-Xclang-linker", "-static-libgcc",
                ]),
            ]
        ),
    ]
)
