// SPDX-License-Identifier: Apache-2.0
import ProgramSupport

/// The rules that make an app's measured traffic an activity of the `traffic` source, apart from how it is
/// measured: the kernel wakes the service when an app first moves `threshold` bytes within a second; the app is
/// then read once a second (`sample`); moving at least the threshold for 2 s in a row makes it an activity, and
/// 3 s in a row below ends it. An app that falls below before it became one, or whose activity ended, is let go
/// (`Step.letGo`): the kernel may wake the service for it again.
///
/// A paused app (`pause`: the kernel drops its packets) is not let go for moving nothing: its activity stays, its
/// rate 0, until it is resumed; then it has as long as it was paused (at least `secondsToEnd`, at most two
/// minutes) before slow seconds count, since TCP retransmits after a pause of that length only about that late.
///
/// Each user's apps are followed `limitPerUser` at a time, so that a user who makes thousands of cgroups cannot
/// keep the service reading them all: an app woken past the limit waits, and is released (`takeReleased`) for the
/// kernel to wake again when one of that user's followed apps is let go.
public struct TrafficWatch<Key: Hashable & Sendable>: Sendable {
    public static var secondsToBegin: Int { 2 }
    public static var secondsToEnd: Int { 3 }
    /// The longest wait after a pause for the app's traffic to come back: TCP's longest retransmission timeout.
    public static var longestWaitAfterPause: Duration { .seconds(120) }

    /// What a sample decides for one app.
    public enum Step: Sendable, Equatable {
        /// Nothing to show yet, or nothing changed that shows.
        case waits
        /// Its activity begins, or goes on with these figures.
        case shows(TrafficFigures)
        /// Its activity ends (when it had one), and it is let go.
        case letGo(hadActivity: Bool)
    }

    /// Bytes a second, at or above which an app counts.
    public let threshold: UInt64
    /// Apps followed at once per user.
    public let limitPerUser: Int
    private var followed: [Key: Followed] = [:]
    private var followedPerUser: [UInt32: Int] = [:]
    /// Apps woken while their user was at the limit, in order, and the same as a set.
    private var waiting: [UInt32: [Key]] = [:]
    private var waitingKeys: Set<Key> = []
    private var released: [Key] = []

    private struct Followed: Sendable {
        var user: UInt32
        var last: ByteCounts
        var lastTime: MonotonicTime
        var secondsAbove: Int
        var secondsBelow = 0
        /// Set while it is an activity: its counts when it began, and its rate.
        var start: ByteCounts?
        var progress = ActivityProgress()
        /// Since when its packets are held back, while they are.
        var pausedSince: MonotonicTime?
        /// Until when slow seconds do not count, after it was released.
        var waitsUntil: MonotonicTime?
    }

    public init(threshold: UInt64, limitPerUser: Int = 32) {
        self.threshold = threshold
        self.limitPerUser = limitPerUser
    }

    /// Whether any app is followed: the service reads counts once a second only while one is.
    public var isFollowing: Bool { !followed.isEmpty }

    public var followedKeys: [Key] { Array(followed.keys) }

    /// The user a followed app was woken as (`wokeUp(for:user:…)`); nil for one not followed.
    public func user(of key: Key) -> UInt32? {
        followed[key]?.user
    }

    /// The kernel woke the service for `key`, an app of `user` that has moved the threshold within the last
    /// second: it is followed from `counts` on, its first second above counted; returns false when its user is at
    /// the limit, and it waits.
    @discardableResult
    public mutating func wokeUp(for key: Key, user: UInt32, counts: ByteCounts, at now: MonotonicTime) -> Bool {
        guard followed[key] == nil else { return true }
        guard followedPerUser[user, default: 0] < limitPerUser else {
            if waitingKeys.insert(key).inserted { waiting[user, default: []].append(key) }
            return false
        }
        followed[key] = Followed(user: user, last: counts, lastTime: now, secondsAbove: 1)
        followedPerUser[user, default: 0] += 1
        return true
    }

    /// The apps that waited and may be woken again, since the last call: the kernel is to be told.
    public mutating func takeReleased() -> [Key] {
        defer { released = [] }
        return released
    }

    /// Stops following `key` at once: its app went away.
    public mutating func stopFollowing(_ key: Key) {
        letGo(key)
    }

    /// Stops following `key`; the first app of its user that waits is released.
    private mutating func letGo(_ key: Key) {
        guard let app = followed.removeValue(forKey: key) else { return }
        followedPerUser[app.user, default: 1] -= 1
        if followedPerUser[app.user] == 0 { followedPerUser[app.user] = nil }
        guard var queue = waiting[app.user], !queue.isEmpty else { return }
        let next = queue.removeFirst()
        waiting[app.user] = queue.isEmpty ? nil : queue
        waitingKeys.remove(next)
        released.append(next)
    }

    /// Whether `key`'s packets are held back (`pause`).
    public func isPaused(_ key: Key) -> Bool { followed[key]?.pausedSince != nil }

    /// The kernel holds back `key`'s packets from `now`: it stays followed, its rate 0, until `resume`.
    public mutating func pause(_ key: Key, at now: MonotonicTime) {
        guard var app = followed[key], app.pausedSince == nil else { return }
        app.pausedSince = now
        // Released, its rate grows again from 0, not from before the pause.
        app.progress = ActivityProgress(percent: nil, done: app.progress.done, total: nil, rate: 0)
        followed[key] = app
    }

    /// The kernel lets `key`'s packets through again from `now`.
    public mutating func resume(_ key: Key, at now: MonotonicTime) {
        guard var app = followed[key], let pausedSince = app.pausedSince else { return }
        let held = pausedSince.duration(to: now)
        app.pausedSince = nil
        app.waitsUntil = now + min(max(held, .seconds(Self.secondsToEnd)), Self.longestWaitAfterPause)
        app.secondsBelow = 0
        app.progress.resume(at: now)
        followed[key] = app
    }

    /// A second's read of a followed app: `counts` now, nil when the kernel has none any more.
    public mutating func sample(_ key: Key, counts: ByteCounts?, at now: MonotonicTime) -> Step {
        guard var app = followed[key] else { return .waits }
        guard let counts, counts.received >= app.last.received, counts.sent >= app.last.sent else {
            letGo(key)
            return .letGo(hadActivity: app.start != nil)
        }
        let elapsed = app.lastTime.duration(to: now).wholeMicroseconds
        guard elapsed > 0 else { return .waits }
        let moved = (counts.received - app.last.received) + (counts.sent - app.last.sent)
        let perSecond = UInt64((Double(moved) * 1_000_000 / Double(elapsed)).rounded())
        app.last = counts
        app.lastTime = now
        if app.pausedSince != nil {
            followed[key] = app
            guard let start = app.start else { return .waits }
            return .shows(TrafficFigures(rate: 0, received: counts.received - start.received,
                                         sent: counts.sent - start.sent))
        }
        if perSecond >= threshold {
            app.secondsAbove += 1
            app.secondsBelow = 0
            app.waitsUntil = nil
        } else if let waitsUntil = app.waitsUntil, now <= waitsUntil {
            app.secondsAbove = 0
        } else {
            app.secondsBelow += 1
            app.secondsAbove = 0
        }
        if app.start == nil {
            guard app.secondsBelow == 0 else {
                letGo(key)
                return .letGo(hadActivity: false)
            }
            guard app.secondsAbove >= Self.secondsToBegin else {
                followed[key] = app
                return .waits
            }
            app.start = counts
            // The rate starts at the last second's, and is smoothed from there as a caller's `SetTransfer` is.
            app.progress = ActivityProgress(percent: nil, done: 0, total: nil, rate: perSecond)
            app.progress.resume(at: now)
        } else if app.secondsBelow >= Self.secondsToEnd {
            letGo(key)
            return .letGo(hadActivity: true)
        } else if let start = app.start {
            app.progress.set(done: (counts.received - start.received) + (counts.sent - start.sent), total: 0, at: now)
        }
        followed[key] = app
        let start = app.start ?? counts
        return .shows(TrafficFigures(rate: app.progress.rate ?? perSecond,
                                     received: counts.received - start.received, sent: counts.sent - start.sent))
    }

    /// Forgets every app: the counting stopped.
    public mutating func forgetAll() {
        self = TrafficWatch(threshold: threshold, limitPerUser: limitPerUser)
    }
}

/// What an app's activity shows of its traffic: its smoothed rate, and the bytes moved each way since it began.
public struct TrafficFigures: Sendable, Equatable {
    public var rate: UInt64
    public var received: UInt64
    public var sent: UInt64

    public init(rate: UInt64, received: UInt64, sent: UInt64) {
        self.rate = rate
        self.received = received
        self.sent = sent
    }

    public var done: UInt64 { received + sent }
}
