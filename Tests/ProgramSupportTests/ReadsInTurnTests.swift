import ProgramSupport
import Testing

/// One read at a time, and the change told meanwhile read once more after it.
@Suite struct ReadsInTurnTests {
    @Test func aBurstOfChangesWhileAReadIsOnItsWayCostsOneMoreRead() {
        var reads = ReadsInTurn()
        #expect(reads.start() == true, "nothing on its way: read now")
        let whileOnItsWay = (0..<3).map { _ in reads.start() }
        #expect(whileOnItsWay == [false, false, false], "one on its way: the changes wait for it")
        #expect(reads.finished() == true, "what changed meanwhile is read once more")
        #expect(reads.start() == true)
        #expect(reads.finished() == false, "nothing changed during the second read")
        #expect(reads.start() == true, "the next change reads at once")
        #expect(reads.finished() == false)
    }
}
