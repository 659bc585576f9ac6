// swift-tools-version: 6.2
// SPDX-License-Identifier: Apache-2.0
import PackageDescription

// netactivity's benchmark and its stress, memory and fuzz tools (docs/performance.md, docs/reliability.md): a package
// of its own, as swift-nio and swift-collections keep theirs, so that nothing that depends on netactivity builds it.
// It measures the programs of the release build (`bash packaging/build-release.sh`, from the repository's top folder).

// A package depended on by path is known by its folder's name, which is whatever the checkout is called.
let netactivity = String(Context.packageDirectory.split(separator: "/").dropLast().last ?? "netactivity")

let package = Package(
    name: "netactivity-benchmarks",
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        .executableTarget(
            name: "netactivity-bench",
            dependencies: [
                .product(name: "ServiceHarness", package: netactivity),
                .product(name: "TrafficCounters", package: netactivity),
                .product(name: "NetworkActivity", package: netactivity),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
