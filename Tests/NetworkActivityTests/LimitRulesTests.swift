import Testing
@testable import NetworkActivity

@Suite("Speed limits: the rules and their file")
struct LimitRulesTests {
    /// Each way given changes and the other stays; 0 lifts a way; a rule that limits neither way goes.
    @Test func aChangeTouchesOnlyTheWaysItNames() throws {
        var rules = LimitRules()
        let steps: [(down: UInt64?, up: UInt64?, then: AppLimit?)] = [
            (2_000_000, nil, AppLimit(down: 2_000_000)),
            (nil, 500_000, AppLimit(down: 2_000_000, up: 500_000)),
            (0, nil, AppLimit(up: 500_000)),
            (nil, 0, nil),
        ]
        for step in steps {
            let limit = try rules.change("firefox-esr", of: 1000, down: step.down, up: step.up)
            #expect(limit == step.then && rules.limit(of: "firefox-esr", user: 1000) == step.then, "\(step)")
        }
        #expect(rules.isEmpty && rules.byUser[1000] == nil)
        // Lifting what no rule limits makes no rule.
        let lifted = try rules.change("org.gnome.Maps", of: 1000, down: 0, up: 0)
        #expect(lifted == nil && rules.isEmpty)
    }

    /// A rule is its user's: another user's of the same app id is another rule, removed on its own.
    @Test func eachUsersRulesAreTheirOwn() throws {
        var rules = LimitRules()
        try rules.change("steam", of: 1000, down: 1_000_000, up: nil)
        try rules.change("steam", of: 1001, down: nil, up: 1_000)
        try rules.change("apt-daily.service", of: 0, down: 500_000, up: nil)
        #expect(rules.rules(of: 1000).map(\.application) == ["steam"])
        #expect(rules.limit(of: "steam", user: 1001) == AppLimit(up: 1_000))
        let (removed, removedAgain) = (rules.remove("steam", of: 1001), rules.remove("steam", of: 1001))
        #expect(removed && !removedAgain)
        #expect(rules.limit(of: "steam", user: 1000) == AppLimit(down: 1_000_000))
        #expect(rules.byUser.keys.sorted() == [0, 1000])
    }

    /// Out of range, a bad app id, or one rule too many: refused by name, and nothing changes.
    @Test func badRulesAreRefusedAndChangeNothing() throws {
        var rules = LimitRules()
        try rules.change("kept", of: 1000, down: 1_000_000, up: nil)
        let before = rules
        let refused: [(String, UInt64?, UInt64?, LimitRuleError)] = [
            ("kept", AppLimit.slowest - 1, nil, .invalidRate(AppLimit.slowest - 1)),
            ("kept", nil, AppLimit.fastest + 1, .invalidRate(AppLimit.fastest + 1)),
            ("", 1_000_000, nil, .invalidApplication("is empty")),
            ("tab\there", 1_000_000, nil, .invalidApplication("holds a control character")),
            (String(repeating: "a", count: 256), 1_000_000, nil, .invalidApplication("is longer than 255 bytes")),
        ]
        for (application, down, up, error) in refused {
            let refusal = Self.refusal(of: &rules, application, down: down, up: up)
            #expect(refusal == error)
            #expect(rules == before)
        }
        let bounds = try rules.change("kept", of: 1000, down: AppLimit.slowest, up: AppLimit.fastest)
        #expect(bounds == AppLimit(down: AppLimit.slowest, up: AppLimit.fastest))
    }

    /// A user keeps at most 256 rules; changing one of them still works at the bound, and another user is not
    /// bounded by the first's.
    @Test func aUserKeepsAtMostTheBound() throws {
        var rules = LimitRules()
        for index in 0..<LimitRules.maximumPerUser {
            try rules.change("app\(index)", of: 1000, down: 1_000_000, up: nil)
        }
        let full = rules
        let refusal = Self.refusal(of: &rules, "one-more", down: 1_000_000, up: nil)
        #expect(refusal == .tooManyRules(limit: 256))
        #expect(rules == full)
        let changed = try rules.change("app0", of: 1000, down: nil, up: 2_000)
        #expect(changed == AppLimit(down: 1_000_000, up: 2_000))
        let anotherUsers = try rules.change("one-more", of: 1001, down: 1_000_000, up: nil)
        #expect(anotherUsers != nil)
    }

    /// What a change threw; nil when it was taken.
    static func refusal(of rules: inout LimitRules, _ application: String, down: UInt64?, up: UInt64?)
        -> LimitRuleError? {
        do {
            try rules.change(application, of: 1000, down: down, up: up)
            return nil
        } catch {
            return error
        }
    }

    /// The file says what it holds, and reads back to the same rules; files of the first versions, before
    /// exemptions from data plans and before metered networks, read as they did.
    @Test func theFileReadsBackWhole() throws {
        var rules = LimitRules()
        try rules.change("firefox-esr", of: 1000, down: 2_000_000, up: nil)
        try rules.change("apt-daily.service", of: 0, down: nil, up: 500_000)
        try rules.change("org.gnome.Maps", of: 1000, down: 1_000, up: 1_000_000_000_000, exemptFromPlans: true,
                         onMetered: .allow)
        try rules.change("org.gnome.Weather", of: 1000, down: nil, up: nil, exemptFromPlans: true)
        try rules.change("steam", of: 1000, down: nil, up: nil, onMetered: .pause)
        try rules.change("podcasts", of: 1001, down: nil, up: nil, onMetered: .slow(100_000))
        rules.setSaver(true, for: 1000)
        let text = LimitRulesFileFormat.encode(rules)
        #expect(text == """
            netactivity limits 3
            saver\t1000
            0\tapt-daily.service\t-\t500000\t-\t-
            1000\tfirefox-esr\t2000000\t-\t-\t-
            1000\torg.gnome.Maps\t1000\t1000000000000\tover-plan\tallow
            1000\torg.gnome.Weather\t-\t-\tover-plan\t-
            1000\tsteam\t-\t-\t-\tpause
            1001\tpodcasts\t-\t-\t-\t100000

            """)
        #expect(LimitRulesFileFormat.decode(text) == rules)
        #expect(LimitRulesFileFormat.decode(LimitRulesFileFormat.encode(LimitRules())) == LimitRules())
        var first = LimitRules()
        try first.change("firefox-esr", of: 1000, down: 2_000_000, up: nil)
        #expect(LimitRulesFileFormat.decode("netactivity limits 1\n1000\tfirefox-esr\t2000000\t-\n") == first)
        try first.change("firefox-esr", of: 1000, down: nil, up: nil, exemptFromPlans: true)
        #expect(LimitRulesFileFormat.decode("netactivity limits 2\n1000\tfirefox-esr\t2000000\t-\tover-plan\n") == first)
    }

    /// What holds an app on a metered network: its rule's word, else the saver's pause, which a rule's `allow`
    /// or rate overrides; the saver alone holds every app of its user's and no other user's, and is no rule.
    @Test func theSaverPausesEveryAppOfItsUserButThoseTheirRulesLetGo() throws {
        var rules = LimitRules()
        try rules.change("firefox-esr", of: 1000, down: 2_000_000, up: nil)
        try rules.change("org.gnome.Maps", of: 1000, down: nil, up: nil, onMetered: .allow)
        try rules.change("podcasts", of: 1000, down: nil, up: nil, onMetered: .slow(100_000))
        #expect(rules.holding(of: "steam", user: 1000) == nil)
        #expect(rules.holding(of: "org.gnome.Maps", user: 1000) == AppLimit(onMetered: .allow))
        let turnedOn = rules.setSaver(true, for: 1000), turnedOnAgain = rules.setSaver(true, for: 1000)
        #expect(turnedOn && !turnedOnAgain, "already on")
        #expect(rules.holding(of: "steam", user: 1000) == AppLimit(onMetered: .pause))
        #expect(rules.holding(of: "firefox-esr", user: 1000) == AppLimit(down: 2_000_000, onMetered: .pause))
        #expect(rules.holding(of: "org.gnome.Maps", user: 1000) == AppLimit(onMetered: .allow))
        #expect(rules.holding(of: "podcasts", user: 1000) == AppLimit(onMetered: .slow(100_000)))
        #expect(rules.holding(of: "steam", user: 1001) == nil, "another user's saver is their own")
        #expect(rules.rules(of: 1000).count == 3, "the saver is no rule")
        try rules.change("podcasts", of: 1000, down: nil, up: nil, onMetered: .some(nil))
        #expect(rules.limit(of: "podcasts", user: 1000) == nil, "a rule left saying nothing goes")
        #expect(rules.holding(of: "podcasts", user: 1000) == AppLimit(onMetered: .pause))
        let turnedOff = rules.setSaver(false, for: 1000)
        #expect(turnedOff)
        #expect(rules.holding(of: "steam", user: 1000) == nil)
        var savedOnly = LimitRules()
        savedOnly.setSaver(true, for: 1001)
        #expect(!savedOnly.isEmpty && savedOnly.holdsApps(of: 1001) && !savedOnly.holdsApps(of: 1000))
        #expect(throws: LimitRuleError.invalidRate(10)) {
            try rules.change("steam", of: 1000, down: nil, up: nil, onMetered: .slow(10))
        }
    }

    /// An exemption is a rule of its own: it stays when the speeds go, and goes when nothing is left.
    @Test func anExemptionFromPlansIsARuleOfItsOwn() throws {
        var rules = LimitRules()
        try rules.change("steam", of: 1000, down: 2_000_000, up: nil, exemptFromPlans: true)
        #expect(try rules.change("steam", of: 1000, down: 0, up: nil) == AppLimit(exemptFromPlans: true))
        #expect(try rules.change("steam", of: 1000, down: nil, up: nil, exemptFromPlans: false) == nil)
        #expect(rules.isEmpty)
        #expect(try rules.change("steam", of: 1000, down: nil, up: nil, exemptFromPlans: false) == nil)
        #expect(rules.isEmpty, "a rule of nothing is not kept")
    }

    /// A file that does not read whole is damaged: none of it is believed.
    @Test func aDamagedFileIsNotBelieved() {
        let good = "netactivity limits 2\n1000\tfirefox-esr\t2000000\t-\t-\n"
        #expect(LimitRulesFileFormat.decode(good) != nil)
        let damaged = [
            "netactivity limits 4\n1000\tfirefox-esr\t2000000\t-\t-\n",  // another format
            "netactivity limits 3\n1000\tfirefox-esr\t2000000\t-\t-\n",  // a field missing for its version
            "netactivity limits 3\n1000\tfirefox-esr\t-\t-\t-\tslow\n",  // not a word of the format
            "netactivity limits 3\n1000\tfirefox-esr\t-\t-\t-\t0\n",  // a rate of nothing
            "netactivity limits 3\n1000\tfirefox-esr\t-\t-\t-\t10\n",  // out of range
            "netactivity limits 3\nsaver\t1000\nsaver\t1000\n",  // twice
            "netactivity limits 3\nsaver\tuser\n",
            "netactivity limits 2\nsaver\t1000\n",  // not in its version
            "netactivity limits 2\n1000\tfirefox-esr\t2000000\t-\t-",  // cut short
            "netactivity limits 2\n1000\tfirefox-esr\t2000000\t-\n",  // a field missing
            "netactivity limits 1\n1000\tfirefox-esr\t2000000\t-\t-\n",  // a field too many for its version
            "netactivity limits 2\n1000\tfirefox-esr\t-\t-\t-\n",  // a rule of nothing
            "netactivity limits 2\n1000\tfirefox-esr\t-\t-\tallow\n",  // not a word of the format
            "netactivity limits 2\n1000\tfirefox-esr\t0\t-\t-\n",  // 0 is written as none
            "netactivity limits 2\n1000\tfirefox-esr\t10\t-\t-\n",  // out of range
            "netactivity limits 2\nuser\tfirefox-esr\t2000000\t-\t-\n",
            "netactivity limits 2\n1000\tfirefox-esr\t2000000\t-\t-\n1000\tfirefox-esr\t1000\t-\t-\n",  // twice
            "netactivity limits 2\n1000\t\t2000000\t-\t-\n",
        ]
        for text in damaged { #expect(LimitRulesFileFormat.decode(text) == nil, "\(text.debugDescription)") }
        let tooMany = (0...LimitRules.maximumPerUser).map { "1000\tapp\($0)\t2000\t-\t-\n" }.joined()
        #expect(LimitRulesFileFormat.decode("netactivity limits 2\n" + tooMany) == nil)
    }
}
