import Foundation
import Testing

extension Integration {
    /// Every input of each fuzz target's corpus (Tests/Fuzzing/Corpus), replayed by the target's plain build
    /// against its oracle: the seeds, and each input that once broke a target, kept as a regression test once
    /// the fault was fixed (docs/reliability.md, "Fuzzing").
    @Suite("The fuzz targets' corpora, replayed")
    struct FuzzCorpusTests {
        @Test(arguments: ["fuzz-service-object", "fuzz-tray-objects", "fuzz-activity-table", "fuzz-outside-text"])
        func everyInputOfTheCorpusPassesTheTargetsOracle(target: String) throws {
            let corpus = Paths.repository.appendingPathComponent("Tests/Fuzzing/Corpus/\(target)")
            let inputs = try FileManager.default.contentsOfDirectory(atPath: corpus.path).filter { !$0.hasPrefix(".") }
            #expect(inputs.count >= 10)
            let replay = try runTool(Paths.products.appendingPathComponent(target).path, [corpus.path], bus: nil,
                                     timeout: .seconds(300))
            #expect(replay.status == 0, "\(replay)")
            #expect(replay.stdout == "replayed \(inputs.count) inputs\n")
        }
    }
}
