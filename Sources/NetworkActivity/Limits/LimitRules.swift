// SPDX-License-Identifier: Apache-2.0

/// The limits people set on apps, as rules by app id, each user's their own (`netactivity limit APP --down RATE`,
/// `--over-plan allow`, `--metered pause`), and whose data saver is on (`netactivity saver on`):
/// a user's rule holds that user's apps (those in their slice), root's the machine's services. A rule holds every
/// instance of its app, now and whenever it runs again; the system service keeps the rules across restarts
/// (`LimitRulesFileFormat`).
public struct LimitRules: Sendable, Equatable {
    /// Rules one user may keep: more than anyone sets by hand, few enough that a user cannot fill the file.
    public static let maximumPerUser = 256
    /// The longest app id a rule may name, in UTF-8 bytes: a unit's name is at most 255.
    public static let maximumApplicationBytes = 255

    /// Each user's rules, by app id.
    public private(set) var byUser: [UInt32: [String: AppLimit]] = [:]
    /// The users whose data saver is on, as Android's Data Saver: on a metered network, every app of theirs is
    /// paused but those their rules let go on (`MeteredRule.allow`) or slow down.
    public private(set) var saverUsers: Set<UInt32> = []

    public init() {}

    /// The limit a rule of `user` sets for `application`; nil for none.
    public func limit(of application: String, user: UInt32) -> AppLimit? {
        byUser[user]?[application]
    }

    /// `user`'s rules, by app id.
    public func rules(of user: UInt32) -> [(application: String, limit: AppLimit)] {
        (byUser[user] ?? [:]).sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// Whether any user has a rule, or their saver on.
    public var isEmpty: Bool { byUser.isEmpty && saverUsers.isEmpty }

    /// Whether anything of `user`'s may hold an app of theirs: a rule, or the saver.
    public func holdsApps(of user: UInt32) -> Bool {
        byUser[user] != nil || saverUsers.contains(user)
    }

    /// What holds `user`'s `application` in the kernel: its rule, paused on metered networks where its rule says
    /// nothing of them and the user's saver is on; nil for nothing.
    public func holding(of application: String, user: UInt32) -> AppLimit? {
        var limit = byUser[user]?[application] ?? AppLimit()
        if limit.onMetered == nil, saverUsers.contains(user) { limit.onMetered = .pause }
        return limit.isNone ? nil : limit
    }

    /// Turns `user`'s data saver on or off; returns whether that changed it.
    @discardableResult
    public mutating func setSaver(_ on: Bool, for user: UInt32) -> Bool {
        on ? saverUsers.insert(user).inserted : saverUsers.remove(user) != nil
    }

    /// Sets `user`'s rule for `application`: each way given changes, the other stays as it was; a way set to 0
    /// has no limit any more; `exemptFromPlans` given changes whether the app goes on past a used-up plan, and
    /// `onMetered` given what it does on a metered network (`.some(nil)`: the saver says). A rule left saying
    /// nothing goes. Returns the rule now, nil for none.
    @discardableResult
    public mutating func change(_ application: String, of user: UInt32, down: UInt64?, up: UInt64?,
                                exemptFromPlans: Bool? = nil,
                                onMetered: MeteredRule?? = nil) throws(LimitRuleError) -> AppLimit? {
        try Self.check(application)
        for rate in [down, up].compactMap({ $0 }) where rate != 0 {
            guard rate >= AppLimit.slowest, rate <= AppLimit.fastest else { throw .invalidRate(rate) }
        }
        if case .slow(let rate)?? = onMetered, !(AppLimit.slowest...AppLimit.fastest).contains(rate) {
            throw .invalidRate(rate)
        }
        var rules = byUser[user] ?? [:]
        var limit = rules[application] ?? AppLimit()
        if let down { limit.down = down == 0 ? nil : down }
        if let up { limit.up = up == 0 ? nil : up }
        if let exemptFromPlans { limit.exemptFromPlans = exemptFromPlans }
        if let onMetered { limit.onMetered = onMetered }
        if !limit.isNone, rules[application] == nil, rules.count >= Self.maximumPerUser {
            throw .tooManyRules(limit: Self.maximumPerUser)
        }
        rules[application] = limit.isNone ? nil : limit
        byUser[user] = rules.isEmpty ? nil : rules
        return limit.isNone ? nil : limit
    }

    /// Removes `user`'s rule for `application`; returns whether there was one.
    @discardableResult
    public mutating func remove(_ application: String, of user: UInt32) -> Bool {
        guard byUser[user]?.removeValue(forKey: application) != nil else { return false }
        if byUser[user]?.isEmpty == true { byUser[user] = nil }
        return true
    }

    /// An app id as `status` shows it: printable, without a control character, of at most
    /// `maximumApplicationBytes`.
    public static func check(_ application: String) throws(LimitRuleError) {
        guard !application.isEmpty else { throw .invalidApplication("is empty") }
        guard application.utf8.count <= maximumApplicationBytes else {
            throw .invalidApplication("is longer than \(maximumApplicationBytes) bytes")
        }
        guard !application.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw .invalidApplication("holds a control character")
        }
    }
}

/// Why a rule was refused. Nothing has changed when one of these is thrown.
public enum LimitRuleError: Error, Equatable, Sendable, CustomStringConvertible {
    case invalidApplication(String)
    case invalidRate(UInt64)
    case tooManyRules(limit: Int)

    public var description: String {
        switch self {
        case .invalidApplication(let reason): "the app id \(reason)"
        case .invalidRate(let rate):
            "a limit of \(rate) bytes a second is out of range; give \(AppLimit.slowest) to \(AppLimit.fastest), or 0 for none"
        case .tooManyRules(let limit): "a user may keep at most \(limit) limits"
        }
    }
}
