import Foundation
import ServiceHarness

/// The project installed by `packaging/install.sh` under a fresh prefix, from the build under test; removed when the
/// value goes away.
final class Installation {
    let prefix: URL

    init() throws {
        prefix = try temporaryDirectory("prefix")
        let result = try runTool("/bin/bash", [Paths.packagingFolder.appendingPathComponent("install.sh").path], bus: nil,
                                 environment: ["PREFIX": prefix.path, "PRODUCTS": Paths.products.path])
        guard result.succeeded else { throw TestFailure("install.sh failed: \(result)") }
    }

    func path(_ relative: String) -> URL { prefix.appendingPathComponent(relative) }

    deinit { try? FileManager.default.removeItem(at: prefix) }
}
