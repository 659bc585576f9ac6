import NetworkActivityInterface
import TestSupport
import Testing
import NetworkActivity
import ProgramSupport

@Suite("Sources of activities, in memory")
struct ActivitySourceTests {
    let clock = TestClock()

    private func coordinator(_ limits: ActivityLimits = ActivityLimits()) -> ActivityCoordinator {
        ActivityCoordinator(limits: limits, delays: .none, clock: clock)
    }

    private func report(_ label: String = "Downloading firefox-esr", user: UInt32? = 1000,
                        percent: UInt32? = nil) throws -> SourceReport {
        SourceReport(label: try ActivityLabel(label), owner: ":1.7 /1_abc", user: user, percent: percent)
    }

    private func announced(_ coordinator: inout ActivityCoordinator) -> (changed: [ActivityID], ended: [ActivityID]) {
        clock.advance(by: ActivityCoordinator.activitiesAnnouncementInterval)
        coordinator.endTurn()
        for case .activitiesChanged(let changed, let ended) in coordinator.takeNotifications() {
            return (changed, ended)
        }
        return ([], [])
    }

    // MARK: PackageKit's rules

    @Test func aTransactionIsAnActivityOnlyWhileItsStatusIsANetworkOne() {
        var transaction = PackageKitTransaction()
        // PkStatusEnum: wait, setup, running, query, info, remove ... download, install ... finished.
        let expected: [UInt32: Bool] = [
            0: false, 1: false, 2: false, 3: false, 6: false, 7: true, 8: true, 9: false, 10: false, 13: false,
            18: false, 19: false, 20: true, 21: true, 22: true, 23: true, 24: true, 25: true, 26: false, 27: false,
            30: false, 31: false,
        ]
        for (status, isNetwork) in expected {
            let taken = transaction.set("Status", to: .unsigned(status))
            #expect(taken)
            #expect(transaction.isNetworkWork == isNetwork, "status \(status)")
        }
    }

    @Test func aTransactionsLabelPercentAndRateFollowItsProperties() {
        var transaction = PackageKitTransaction()
        for (name, value) in [("Role", PackageKitTransaction.PropertyValue.unsigned(25)), ("Status", .unsigned(8)),
                              ("LastPackage", .text("firefox-esr;115.5.0esr-1~deb12u1;amd64;debian-security")),
                              ("Percentage", .unsigned(101)), ("Speed", .unsigned(8_000_000)),
                              ("Uid", .unsigned(1000)), ("Sender", .text(":1.9"))] {
            let taken = transaction.set(name, to: value)
            #expect(taken, "\(name)")
        }
        #expect(transaction.label == "Downloading firefox-esr")
        #expect(transaction.percent == nil, "101 means unknown")
        #expect(transaction.rate == 1_000_000, "bits per second, divided by 8")
        #expect(transaction.user == 1000 && transaction.sender == ":1.9")
        let followsCancel = transaction.set("AllowCancel", to: .unsigned(1))
        #expect(!followsCancel, "not followed: the service never stops a transaction")
        _ = transaction.set("Percentage", to: .unsigned(45))
        #expect(transaction.percent == 45)

        // A refresh names no package; an update without one says so.
        var refresh = PackageKitTransaction()
        _ = refresh.set("Role", to: .unsigned(13))
        #expect(refresh.label == "Refreshing the package lists")
        var update = PackageKitTransaction()
        _ = update.set("Role", to: .unsigned(22))
        #expect(update.label == "Updating packages")
        _ = update.set("LastPackage", to: .text("libc6;2.36-9;amd64;debian"))
        #expect(update.label == "Updating libc6")
    }

    @Test func aPropertyOfTheWrongTypeOrUnknownChangesNothing() {
        var transaction = PackageKitTransaction()
        _ = transaction.set("Percentage", to: .unsigned(30))
        let before = transaction
        let taken = [transaction.set("Percentage", to: .text("30")), transaction.set("Status", to: .text("8")),
                     transaction.set("Frobnicate", to: .unsigned(1))]
        #expect(taken == [false, false, false])
        #expect(transaction == before)
    }

    // MARK: Launcher entries' rules

    private func update(
        _ entries: inout LauncherEntries, from sender: String, appURI: String,
        properties: [String: LauncherEntries.Value], at now: MonotonicTime
    ) -> LauncherEntries.Meaning {
        entries.update(from: sender, application: LauncherEntryInterface.desktopID(ofURI: appURI),
                       properties: properties, at: now)
    }

    @Test func aListedAppShowsWhileItsProgressIsVisible() {
        var entries = LauncherEntries(followedApplications: ["chromium"])
        let now = clock.monotonic
        #expect(update(&entries, from: ":1.5", appURI: "application://chromium.desktop",
                               properties: ["progress": .number(0.454), "progress-visible": .flag(true)], at: now)
                == .shows(item: .launcherEntry(sender: ":1.5", application: "chromium"), application: "chromium", percent: 45))
        // Only what changed comes; the visibility stays.
        #expect(update(&entries, from: ":1.5", appURI: "application://chromium.desktop",
                               properties: ["progress": .number(1)], at: now)
                == .shows(item: .launcherEntry(sender: ":1.5", application: "chromium"), application: "chromium", percent: 100))
        #expect(update(&entries, from: ":1.5", appURI: "application://chromium.desktop",
                               properties: ["progress-visible": .flag(false)], at: now)
                == .hidden(item: .launcherEntry(sender: ":1.5", application: "chromium")))
        // Hidden, a progress alone shows nothing.
        #expect(update(&entries, from: ":1.5", appURI: "application://chromium.desktop",
                               properties: ["progress": .number(0.5)], at: now)
                == .hidden(item: .launcherEntry(sender: ":1.5", application: "chromium")))
        #expect(update(&entries, from: ":1.5", appURI: "application://chromium.desktop",
                               properties: ["count": .other(signature: "x")], at: now) == .ignored(nil))
    }

    @Test func unlistedAppsWrongURIsAndWrongTypesAreIgnored() {
        var entries = LauncherEntries(followedApplications: LauncherEntries.browsers)
        let now = clock.monotonic
        let visible: [String: LauncherEntries.Value] = ["progress": .number(0.5), "progress-visible": .flag(true)]
        #expect(update(&entries, from: ":1.5", appURI: "application://org.gnome.Nautilus.desktop", properties: visible,
                               at: now) == .ignored(nil))
        for uri in ["file:///usr/share/applications/chromium.desktop", "application://chromium", "application://.desktop",
                    "application://a/b.desktop"] {
            guard case .ignored(let reason) = update(&entries, from: ":1.5", appURI: uri, properties: visible, at: now)
            else { Issue.record("\(uri) was followed"); continue }
            #expect(reason != nil, "\(uri)")
        }
        for properties: [String: LauncherEntries.Value] in [
            ["progress": .number(1.5), "progress-visible": .flag(true)],
            ["progress": .number(-0.1), "progress-visible": .flag(true)],
            ["progress": .number(.nan), "progress-visible": .flag(true)],
            ["progress": .flag(true), "progress-visible": .flag(true)],
            ["progress": .number(0.5), "progress-visible": .number(1)],
            ["progress": .number(0.5), "progress-visible": .other(signature: "s")],
        ] {
            guard case .ignored(let reason) = update(&entries, from: ":1.5", appURI: "application://chromium.desktop",
                                                             properties: properties, at: now)
            else { Issue.record("\(properties) was taken"); continue }
            #expect(reason != nil, "\(properties)")
        }
        #expect(LauncherEntries.browsers.contains("org.chromium.Chromium"))
    }

    @Test func aSenderThatFloodsIsHeardOnlyUpToItsBudgetEachSecond() {
        var entries = LauncherEntries(followedApplications: ["chromium"])
        let visible: [String: LauncherEntries.Value] = ["progress": .number(0.5), "progress-visible": .flag(true)]
        func shown(_ sender: String) -> Bool {
            if case .shows = entries.update(from: sender, application: "chromium",
                                            properties: visible, at: clock.monotonic) { return true }
            return false
        }
        let heard = (0..<1000).filter { _ in shown(":1.5") }.count
        #expect(heard == LauncherEntries.updatesPerSecond)
        // Another sender has its own budget; the flooder has a new one a second later.
        #expect(shown(":1.6"))
        clock.advance(by: .seconds(1))
        #expect(shown(":1.5"))
        // Forgotten once it left: nothing of it is kept.
        entries.senderLeft(":1.5")
        #expect(update(&entries, from: ":1.5", appURI: "application://chromium.desktop",
                               properties: ["progress": .number(0.2)], at: clock.monotonic)
                == .hidden(item: .launcherEntry(sender: ":1.5", application: "chromium")))
    }

    // MARK: In the coordinator

    @Test func aSourcesWorkCountsShowsAndEndsOnlyByItsSource() throws {
        var coordinator = coordinator()
        let id = try coordinator.report(try report(percent: 10), of: .transaction(path: "/1_abc"))
        #expect(coordinator.activeCount == 1 && coordinator.isVisible)
        #expect(announced(&coordinator).changed == [id])
        // The same item is the same activity; a report that says nothing new announces nothing.
        let same = try coordinator.report(try report(percent: 20), of: .transaction(path: "/1_abc"))
        #expect(same == id)
        #expect(coordinator.sourceActivity(id)?.report.percent == 20)
        #expect(announced(&coordinator).changed == [id])
        _ = try coordinator.report(try report(percent: 20), of: .transaction(path: "/1_abc"))
        #expect(announced(&coordinator).changed == [])

        // Callers cannot end or change it.
        #expect(throws: ActivityError.notOwner(id)) {
            try coordinator.end(id, caller: ":1.3") { 1000 }
        }
        #expect(throws: ActivityError.notOwner(id)) {
            try coordinator.setProgress(id, percent: 5, caller: ":1.3") { _ in 1000 }
        }
        let cancelled = coordinator.cancel(caller: ":1.7")
        #expect(cancelled == 0)

        // Its id is never one a caller gets, nor one the caller's gets again.
        let own = try coordinator.begin(label: "backup", caller: ":1.3") { _ in 1000 }
        #expect(own != id)
        let ended = [coordinator.endSourceWork(.transaction(path: "/1_abc")),
                     coordinator.endSourceWork(.transaction(path: "/1_abc"))]
        #expect(ended == [id, nil])
        #expect(announced(&coordinator).ended == [id])
        #expect(coordinator.activeCount == 1)
    }

    @Test func aUsersPrivateWorkIsInNoBroadcastAndDoesNotExistForAnotherUser() throws {
        var coordinator = coordinator()
        coordinator.keepHistory(limitPerUser: 10)
        coordinator.serviceUser = 113
        var app = try report("Backup Tool", user: 1000)
        app.privateTo = 1000
        let id = try coordinator.report(app, of: .appTraffic(TrafficItem(cgroupID: 1, user: 1000)))
        // Nothing for everyone: no count, no indicator, no broadcast change.
        #expect(coordinator.activeCount == 0 && !coordinator.isVisible)
        clock.advance(by: ActivityCoordinator.activitiesAnnouncementInterval)
        coordinator.endTurn()
        #expect(coordinator.takeNotifications() == [.privateActivitiesChanged(user: 1000, changed: [id], ended: [])])
        app.rate = 5000
        _ = try coordinator.report(app, of: .appTraffic(TrafficItem(cgroupID: 1, user: 1000)))
        clock.advance(by: ActivityCoordinator.activitiesAnnouncementInterval)
        coordinator.endTurn()
        #expect(coordinator.takeNotifications() == [.privateActivitiesChanged(user: 1000, changed: [id], ended: [])])

        // Its user, root and the service's own user are told it is not theirs; anyone else that it is unknown.
        for (user, error) in [(UInt32(1000), ActivityError.notOwner(id)), (0, .notOwner(id)), (113, .notOwner(id)),
                              (1001, .unknownActivity(id))] {
            #expect(throws: error) { try coordinator.end(id, caller: ":1.3") { user } }
            #expect(throws: error) { try coordinator.setProgress(id, percent: 5, caller: ":1.3") { _ in user } }
            #expect(throws: error == .notOwner(id) ? .notCancellable(id) : error) {
                _ = try coordinator.requestCancel(id, caller: ":1.3", serviceUser: 113) { _ in user }
            }
        }

        // Its end and its history entry are its user's alone too.
        coordinator.endSourceWork(.appTraffic(TrafficItem(cgroupID: 1, user: 1000)))
        clock.advance(by: ActivityCoordinator.activitiesAnnouncementInterval)
        coordinator.endTurn()
        #expect(coordinator.takeNotifications() == [.privateActivitiesChanged(user: 1000, changed: [], ended: [id])])
        coordinator.recordFinished(identify: { _ in nil }) { _ in }
        clock.advance(by: .seconds(1))
        let change = coordinator.takeHistoryChange(at: clock.monotonic)
        let audience = try #require(change)
        #expect(!audience.isEveryone && audience.users == [1000])
    }

    @Test func aSourceThatLeavesEndsAllItsWorkAndOnlyIts() throws {
        var coordinator = coordinator()
        _ = try coordinator.report(try report(), of: .launcherEntry(sender: ":1.5", application: "chromium"))
        _ = try coordinator.report(try report(), of: .launcherEntry(sender: ":1.5", application: "google-chrome"))
        let other = try coordinator.report(try report(), of: .launcherEntry(sender: ":1.6", application: "chromium"))
        let transaction = try coordinator.report(try report(), of: .transaction(path: "/1_abc"))
        let senderLeft = coordinator.endSourceWork(of: .launcher, .left) { $0.isLauncherEntry(of: ":1.5") }
        #expect(senderLeft == 2)
        #expect(coordinator.allSourceActivities.map(\.id) == [other, transaction])
        let packageKitLeft = coordinator.endSourceWork(of: .packagekit, .left)
        #expect(packageKitLeft == 1)
        #expect(coordinator.allSourceActivities.map(\.id) == [other])
    }

    @Test func aSourcesWorkIsBoundByItsUsersQuotaWithTheUsersOwn() throws {
        var coordinator = coordinator(ActivityLimits(perUser: 3))
        _ = try coordinator.begin(label: "backup", caller: ":1.3") { _ in 1000 }
        _ = try coordinator.report(try report(), of: .launcherEntry(sender: ":1.9", application: "a"))
        _ = try coordinator.report(try report(), of: .launcherEntry(sender: ":1.9", application: "b"))
        #expect(throws: ActivityError.userLimitExceeded(limit: 3)) {
            try coordinator.report(try report(), of: .launcherEntry(sender: ":1.9", application: "c"))
        }
        #expect(coordinator.activeCount == 3)
        // Another user's work is not this one's.
        _ = try coordinator.report(try report(user: 1001), of: .launcherEntry(sender: ":1.9", application: "c"))
        #expect(coordinator.activeCount == 4)
    }

    /// One quota for both: the user's own activities are refused while its sources' work fills it, and admitted
    /// again once the work ends.
    @Test func aUsersOwnActivitiesAreBoundWithItsSourcesWork() throws {
        var coordinator = coordinator(ActivityLimits(perUser: 2))
        _ = try coordinator.report(try report(), of: .launcherEntry(sender: ":1.9", application: "a"))
        _ = try coordinator.report(try report(), of: .launcherEntry(sender: ":1.9", application: "b"))
        #expect(throws: ActivityError.userLimitExceeded(limit: 2)) {
            try coordinator.beginTimed(label: "backup", seconds: 60, caller: ":1.3", user: 1000) { _ in 1000 }
        }
        coordinator.endSourceWork(.launcherEntry(sender: ":1.9", application: "a"))
        _ = try coordinator.beginTimed(label: "backup", seconds: 60, caller: ":1.3", user: 1000) { _ in 1000 }
        #expect(coordinator.activeCount == 2)
    }

    /// PackageKit takes a transaction's `Cancel` only from the connection that created it: no source's work is
    /// stopped from here, whoever asks.
    @Test func aSourcesActivityIsNotCancellable() throws {
        var coordinator = coordinator()
        let id = try coordinator.report(try report(), of: .transaction(path: "/1_a"))
        for user: UInt32 in [0, 1000] {
            #expect(throws: ActivityError.notCancellable(id)) {
                try coordinator.requestCancel(id, caller: ":1.3", serviceUser: 1000) { _ in user }
            }
        }
        #expect(coordinator.sourceActivity(id) != nil, "it stays, and changes not")
    }

    @Test func labelsFromASourceAreMadeSafe() {
        #expect(ActivityLabel(sanitizing: "evil\u{1B}[31mred\n").text == "evil [31mred ")
        let long = String(repeating: "é", count: 200)
        let cut = ActivityLabel(sanitizing: long).text
        #expect(cut.utf8.count <= ActivityLabel.maximumByteCount && long.hasPrefix(cut) && cut.count == 128)
    }
}
