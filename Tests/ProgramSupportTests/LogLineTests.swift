#if canImport(Glibc)
import Glibc
#endif
@testable import ProgramSupport
import Testing

@Suite enum LogLineTests {
    @Test static func theJournalGetsThePriorityOnEveryLine() {
        let line = LogLine(level: .warning, label: "netactivityd", fileID: "NetworkActivityService/X.swift",
                           message: "first\nsecond")
        #expect(line.forJournal == "<4>first\n<4>second\n")
    }

    @Test static func eachLevelHasSyslogsPriority() {
        let priorities = Logger.Level.allCases.map {
            LogLine(level: $0, label: "", fileID: "M/F.swift", message: "").priority
        }
        #expect(priorities == [7, 7, 6, 5, 4, 3, 2])
    }

    @Test static func aTerminalGetsTheTimeTheLevelTheLabelAndTheModule() {
        let line = LogLine(level: .info, label: "netactivityd", fileID: "NetworkActivityService/X.swift",
                           message: "owning org.example.NetworkActivity as :1.0")
        let text = line.forTerminal(at: 0)
        #expect(text.prefixMatch(of: #/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d{4} /#) != nil, "\(text)")
        #expect(text.hasSuffix(" info netactivityd: [NetworkActivityService] owning org.example.NetworkActivity as :1.0\n"),
                "\(text)")
    }

    @Test static func levelsAreOrderedBySeverity() {
        #expect(Logger.Level.allCases == Logger.Level.allCases.sorted())
        #expect(Logger.Level.debug < .info && .error < .critical)
        #expect(Logger.Level(rawValue: "notice") == .notice)
        #expect(Logger.Level(rawValue: "loud") == nil)
    }
}
