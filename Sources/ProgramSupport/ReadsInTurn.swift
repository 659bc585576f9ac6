// SPDX-License-Identifier: Apache-2.0
/// Reads of what the service may change again while a read is on its way (the tray's history, its day's data
/// usage): one read at a time, and one more after it when a change was told meanwhile, so that the last change is
/// always read and a burst of changes costs two reads, not one each.
public struct ReadsInTurn: Sendable {
    private var isReading = false
    private var isWantedAgain = false

    public init() {}

    /// A read is wanted: true to send it now; false when one is on its way, and `finished()` will ask for it.
    public mutating func start() -> Bool {
        guard !isReading else {
            isWantedAgain = true
            return false
        }
        isReading = true
        return true
    }

    /// The read on its way answered: true when another is to be sent (`start()` again).
    public mutating func finished() -> Bool {
        isReading = false
        defer { isWantedAgain = false }
        return isWantedAgain
    }
}
