import NetworkActivityInterface
import DesktopIndicator
import NetworkActivityClient
import ProgramSupport
import Testing

/// When docks and notification servers hear of progress: `LauncherProgress` and `ProgressNotifications`, on a
/// clock in microseconds.
@Suite("Progress on docks and in notifications, paced")
struct ProgressPacingTests {
    static func activity(_ id: UInt32, app: String? = "org.example.Backup", percent: UInt32?,
                         cancellable: Bool = false, source: String? = nil) -> ActivityStatus {
        ActivityStatus(ActivityDetails(id: id, label: "backup", owner: ":1.7", startedAt: 1_800_000_000_000_000,
                                       user: 1000, application: app, isCancellable: cancellable, percent: percent,
                                       source: source.map(ActivityDetails.Source.init(rawValue:))))
    }

    static func at(_ milliseconds: Int64) -> MonotonicTime { MonotonicTime(microseconds: milliseconds * 1000) }

    @Test func anAppHearsAtMostTwoUpdatesASecondAndItsHideAtOnce() {
        var progress = LauncherProgress()
        progress.follow([Self.activity(1, percent: 10)]) { _ in true }
        #expect(progress.due(at: Self.at(0)).updates == [.init(application: "org.example.Backup", progress: 0.1)])
        progress.follow([Self.activity(1, percent: 20)]) { _ in true }
        let early = progress.due(at: Self.at(100))
        #expect(early.updates.isEmpty && early.next == Self.at(500))
        progress.follow([Self.activity(1, percent: 30)]) { _ in true }
        #expect(progress.due(at: Self.at(500)).updates == [.init(application: "org.example.Backup", progress: 0.3)])
        progress.follow([]) { _ in true }
        #expect(progress.due(at: Self.at(510)).updates == [.init(application: "org.example.Backup", progress: nil)])
        #expect(progress.shown.isEmpty)
    }

    @Test func neverThreeUpdatesWithin32Milliseconds() {
        var progress = LauncherProgress()
        progress.follow((1...5).map { Self.activity($0, app: "org.example.App\($0)", percent: 50) }) { _ in true }
        let first = progress.due(at: Self.at(0))
        #expect(first.updates.count == 2 && first.next == Self.at(32))
        #expect(progress.due(at: Self.at(31)).updates.isEmpty)
        #expect(progress.due(at: Self.at(32)).updates.count == 2)
        #expect(progress.due(at: Self.at(64)).updates.count == 1)
    }

    @Test func whatIsNeverSent() {
        var progress = LauncherProgress()
        progress.follow([
            Self.activity(1, app: "bad id", percent: 50), Self.activity(2, app: "../etc/passwd", percent: 50),
            Self.activity(3, app: "org.example.NoFile", percent: 50), Self.activity(4, app: nil, percent: 50),
            Self.activity(5, app: "chromium", percent: 50, source: "launcher"),
            Self.activity(6, app: "org.example.NoProgress", percent: nil),
        ]) { $0 != "org.example.NoFile" }
        #expect(progress.due(at: Self.at(0)).updates.isEmpty)
        #expect(!LauncherProgress.isDesktopID("") && !LauncherProgress.isDesktopID("a/b")
                && LauncherProgress.isDesktopID("org.gnome.Nautilus") && LauncherProgress.isDesktopID("firefox-esr"))
    }

    @Test func anAppThatShowsItsOwnIsLeftAloneWithoutAHide() {
        var progress = LauncherProgress()
        progress.follow([Self.activity(1, percent: 10)]) { _ in true }
        _ = progress.due(at: Self.at(0))
        progress.anotherSenderShows("org.example.Backup")
        progress.follow([Self.activity(1, percent: 90)]) { _ in true }
        #expect(progress.due(at: Self.at(1000)).updates.isEmpty)
        #expect(progress.hideAll().isEmpty)
    }

    @Test func aNotificationIsUpdatedAtMostOnceASecondAndFinishedInPlace() {
        var notifications = ProgressNotifications()
        let first = notifications.follow([Self.activity(1, percent: 10, cancellable: true)], at: Self.at(0),
                                         wallClock: 0)
        #expect(first.steps.count == 1)
        let soon = notifications.follow([Self.activity(1, percent: 20, cancellable: true)], at: Self.at(300),
                                        wallClock: 0)
        #expect(soon.steps.isEmpty && soon.next == Self.at(1000))
        let due = notifications.follow([Self.activity(1, percent: 20, cancellable: true)], at: Self.at(1000),
                                       wallClock: 0)
        #expect(due.steps == [.progress(Self.activity(1, percent: 20, cancellable: true))])
        // Nothing new: nothing sent.
        #expect(notifications.follow([Self.activity(1, percent: 20, cancellable: true)], at: Self.at(5000),
                                     wallClock: 0).steps.isEmpty)
        let ended = notifications.follow([], at: Self.at(5100), wallClock: 42)
        #expect(ended.steps == [.finished(Self.activity(1, percent: 20, cancellable: true), endedAt: 42)])
        // An activity without progress has no notification.
        #expect(notifications.follow([Self.activity(2, percent: nil)], at: Self.at(6000), wallClock: 0).steps.isEmpty)
    }
}
