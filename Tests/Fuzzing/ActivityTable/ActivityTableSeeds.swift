#if DEBUG  // A fuzz target reads internals (@testable), which a debug build alone compiles for: ReleaseBuild.swift.
extension TableScene {
    /// A program's day: begin, report and end; timed activities running out; callers leaving; quotas reached; a
    /// restart in the middle.
    static func seeds() -> [String: [UInt8]] {
        let roomy: [UInt8] = [5, 7, 11, 2]
        let tight: [UInt8] = [0, 1, 2, 1]
        let begin: (UInt8) -> [UInt8] = { slot in [0, slot, 7] }
        let timed: (UInt8, UInt8) -> [UInt8] = { slot, seconds in [1, slot, 7, seconds] }
        return [
            "begin-end": roomy + begin(0) + [2, 0, 0],
            "end-by-other": roomy + begin(0) + [2, 1, 0] + timed(0, 4) + [2, 1, 0],
            "quota": tight + begin(0) + begin(0) + begin(1) + begin(2) + timed(2, 4),
            "timeout": roomy + timed(0, 4) + [5, 0, 40, 5, 0, 255],
            "leave": roomy + begin(0) + timed(0, 4) + [4, 0] + [2, 1, 0],
            "progress": roomy + begin(0) + [6, 0, 0, 2] + [7, 1, 0, 3, 9] + [6, 0, 0, 5],
            "stop": roomy + begin(0) + [8, 0, 0, 1] + [9, 2, 0] + [9, 4, 0] + [4, 0],
            "restart": roomy + begin(0) + timed(1, 5) + [8, 1, 0, 1] + [10, 0] + [2, 0, 1] + begin(3),
            "cancel-reset": roomy + begin(0) + timed(0, 4) + [3, 0] + begin(2) + [11, 4],
            "labels": roomy + [0, 0, 0, 0, 0, 1, 0, 0, 2, 0, 0, 3, 0, 0, 5, 3, 0x61, 0xC2, 0x85],
        ]
    }
}
#endif
