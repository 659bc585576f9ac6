import Foundation

/// SplitMix64: a small generator whose sequence is fixed by its seed, so that a stress or fuzz run, or a test that
/// draws at random, can be repeated exactly from the seed it prints.
public struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    /// The generator for part `index` of a run (one client, one connection), independent of the others.
    public init(seed: UInt64, part index: Int) {
        var mixer = SeededGenerator(seed: seed ^ (UInt64(truncatingIfNeeded: index) &* 0x9E37_79B9_7F4A_7C15))
        state = mixer.next()
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// True with probability `p`.
    public mutating func chance(_ p: Double) -> Bool {
        Double.random(in: 0..<1, using: &self) < p
    }
}

extension SeededGenerator {
    /// A generator for a test named `test`: seeded from `NETACTIVITY_TEST_SEED` when it is set, otherwise at
    /// random; the seed is printed first, so that a failure (an abort included) can be replayed with it.
    public static func forTest(_ test: String) -> SeededGenerator {
        let seed = ProcessInfo.processInfo.environment["NETACTIVITY_TEST_SEED"].flatMap { UInt64($0) }
            ?? UInt64.random(in: 0...UInt64.max)
        FileHandle.standardError.write(Data("\(test): seed \(seed) (NETACTIVITY_TEST_SEED=\(seed) replays it)\n".utf8))
        return SeededGenerator(seed: seed)
    }
}
