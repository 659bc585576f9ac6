import NetworkActivity
import NetworkActivityInterface
@testable import NetworkActivityService
import Testing

/// The domain's names of sources and outcomes are the record's: each one the domain has is a word the interface
/// declares, so that the record never carries a word no reader was told of.
@Suite struct RecordVocabularyTests {
    @Test func everySourceOfTheDomainIsOneTheRecordDeclares() {
        let declared: Set<ActivityDetails.Source> = [.packagekit, .launcher, .traffic]
        #expect(Set(ActivitySource.allCases.map(ActivityDetails.Source.init)) == declared)
    }

    @Test func everyOutcomeOfTheDomainIsOneTheRecordDeclares() {
        let declared: Set<ActivityDetails.Outcome> = [.ended, .stopped, .left, .expired, .reset, .paused]
        #expect(Set(ActivityOutcome.allCases.map { ActivityDetails.Outcome(rawValue: $0.rawValue) }) == declared)
    }
}
