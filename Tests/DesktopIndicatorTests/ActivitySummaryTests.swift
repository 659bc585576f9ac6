import DesktopIndicator
import Testing

@Suite enum ActivitySummaryTests {
    @Test static func namesTheLabelsInOrder() {
        #expect(ActivitySummary(count: 3, labels: ["mail", "backup", "sync"]).text == "3 active: mail, backup, sync")
        #expect(ActivitySummary(count: 1, labels: ["mail"]).text == "1 active: mail")
    }

    @Test static func countsWhatItDoesNotName() {
        let labels = (1...7).map { "job \($0)" }
        #expect(ActivitySummary(count: 7, labels: labels).text
            == "7 active: job 1, job 2, job 3, job 4, job 5 and 2 more")
    }

    @Test static func idleAndUnknownLabels() {
        #expect(ActivitySummary(count: 0, labels: []).text == "No network activity")
        #expect(ActivitySummary(count: 4, labels: []).text == "4 active")
    }

    @Test static func emptyAndLongLabelsAreReadable() {
        #expect(ActivitySummary(count: 1, labels: [""]).text == "1 active: (no label)")
        let long = String(repeating: "x", count: 300)
        let shown = ActivitySummary.displayed(long)
        #expect(shown.count == ActivitySummary.labelLength)
        #expect(shown.hasSuffix("…"))
        #expect(ActivitySummary.displayed(String(repeating: "y", count: 40)) == String(repeating: "y", count: 40))
    }

    /// The one rule for a list of labels, which the tray's notification and waybar's tooltip both show.
    @Test static func theLabelListReadsEachLabelAsTheSummaryDoesOnePerLineEscaped() {
        let long = String(repeating: "z", count: 50)
        #expect(ActivitySummary.markupList(["a & b", "", long])
            == "a &amp; b\n(no label)\n" + ActivitySummary.displayed(long))
        #expect(ActivitySummary.markupList([]) == "")
    }

    @Test static func markupIsEscaped() {
        #expect("<b>R&D</b> > x".markupEscaped == "&lt;b&gt;R&amp;D&lt;/b&gt; &gt; x")
        #expect("plain ünïcode".markupEscaped == "plain ünïcode")
    }
}
