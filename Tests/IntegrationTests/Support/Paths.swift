import Foundation
import ServiceHarness

enum Paths {
    /// The folder of the built products (`.build/debug`), where the test bundle itself lives.
    static let products = BuiltProducts.folder

    static let daemon = products.appendingPathComponent("netactivityd")
    static let cli = products.appendingPathComponent("netactivity")
    static let tray = products.appendingPathComponent("netactivity-tray")

    /// The repository, found from this file's place in it.
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let dbusFolder = repository.appendingPathComponent("dbus")
    /// Helpers the tests run that are not Swift (`Tests/Tools`).
    static let testTools = repository.appendingPathComponent("Tests/Tools")
    /// The scripts that build, package, install and run.
    static let packagingFolder = repository.appendingPathComponent("packaging")

    /// The release build's programs, when `Tests/run.sh` has built them (`packaging/build-release.sh`), for the
    /// tests that package or install a release; nil when the suite was started some other way.
    static let releaseProducts = ProcessInfo.processInfo.environment["NETACTIVITY_RELEASE"]
        .map { URL(fileURLWithPath: $0) }

    /// The benchmark, a package of its own, which `Tests/run.sh` builds before the tests run.
    static let bench = repository.appendingPathComponent("Benchmarks/.build/debug/netactivity-bench")
    /// Has the benchmark measure the programs under test, not a release build.
    static let benchEnvironment = ["NETACTIVITY_PROGRAMS": products.path]
}
