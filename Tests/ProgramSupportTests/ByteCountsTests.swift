import ProgramSupport
import Testing

@Suite struct ByteCountsTests {
    @Test func sumsStopAtTheMostRatherThanWrap() {
        var counts = ByteCounts(received: .max - 1, sent: 5)
        counts += ByteCounts(received: 3, sent: 7)
        #expect(counts == ByteCounts(received: .max, sent: 12))
        #expect(counts.total == .max)
        #expect(ByteCounts(received: 2, sent: 3).total == 5)
    }
}
