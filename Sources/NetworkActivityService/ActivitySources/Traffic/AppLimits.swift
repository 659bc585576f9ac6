// SPDX-License-Identifier: Apache-2.0
import DBusKit
import NetworkActivity
import NetworkActivityInterface
import ProgramSupport
import TrafficCounters

/// Keeps apps to the speed limits people set (`LimitRules`), a peer of `TrafficKernel`, whose held map has the
/// kernel hold them: every cgroup of a rule's app, in the slice of the rule's user (root's: in no user's slice),
/// now and whenever one starts. A rule set finds the app's cgroups in the tree; a cgroup started later is found
/// when the kernel makes its first entry (`WakeUpKind.newEntry`), which wakes the service at once while any
/// rule is kept, and looked for first where the apps of the rules' users run (`CgroupPaths.lookInterval`), so
/// that an app which starts under a limit is held within a tenth of a second. The rules are written to `limits` in
/// the service's directory at each change.
final class AppLimits: TrafficPeer, SpeedLimiting {
    static let fileName = "limits"
    /// How often the cgroups held are checked for having gone, while any is.
    static let pruneInterval = Duration.seconds(60)

    private(set) var rules: LimitRules
    private unowned let kernel: TrafficKernel
    private let directory: String?
    /// Each cgroup the kernel told of, named: whose rules hold it and its app; nil for one that holds no app.
    private var named: [UInt64: (owner: UInt32, application: String)?] = [:]
    /// Cgroups the kernel told of that could not be named yet (the tree was walked within the second), with the
    /// owner of the socket that made the entry.
    private var unnamed: [UInt64: UInt32] = [:]
    private var nextPrune: MonotonicTime?
    /// Told of each cgroup held to another limit, or let go: its rows say so (`MeasuredApps.limitChanged`).
    var onHeld: ((UInt64) -> Void)?

    init(kernel: TrafficKernel, directory: String?) {
        self.kernel = kernel
        self.directory = directory
        rules = directory.flatMap { Self.file.read(from: $0, logger: kernel.logger) } ?? LimitRules()
        kernel.newEntriesMustWake = !rules.isEmpty
    }

    func kernelWoke(for key: CounterKey, _ kind: WakeUpKind, at now: MonotonicTime) {
        guard !rules.isEmpty, named[key.cgroupID] == nil else { return }
        name(key.cgroupID, socketOwner: key.user, at: now)
    }

    func endOfTurn(at now: MonotonicTime) -> Duration? {
        for (cgroupID, socketOwner) in unnamed { name(cgroupID, socketOwner: socketOwner, at: now) }
        if let due = nextPrune, now >= due { prune() }
        if nextPrune == nil, !kernel.limitedCgroups.isEmpty { nextPrune = now + Self.pruneInterval }
        if kernel.limitedCgroups.isEmpty { nextPrune = nil }
        let retry = unnamed.isEmpty ? nil : now + CgroupPaths.lookInterval
        return [retry, nextPrune].compactMap { $0 }.min().map { now.duration(to: max(now, $0)) }
    }

    // MARK: What the endpoint asks

    func limits(of user: UInt32) -> [(application: String, limit: AppLimit)] {
        rules.rules(of: user)
    }

    func changeLimit(of application: String, user: UInt32, _ change: LimitChange) throws(DBusError) {
        var onMetered: MeteredRule??
        switch change.onMetered {
        case nil: onMetered = nil
        case LimitRecord.Metered.none: onMetered = .some(nil)
        case let word?:
            guard let rule = MeteredRule(word: word) else {
                throw DBusError(.invalidArgs, "a limit's metered is pause, allow, none or bytes a second, not \"\(word)\"")
            }
            onMetered = rule
        }
        var changed = rules
        do {
            try changed.change(application, of: user, down: change.down, up: change.up,
                               exemptFromPlans: change.exemptFromPlans, onMetered: onMetered)
        } catch {
            throw error.dbusError
        }
        try apply(changed, to: application, of: user)
    }

    func saverIsOn(for user: UInt32) -> Bool {
        rules.saverUsers.contains(user)
    }

    func setSaver(_ on: Bool, for user: UInt32) throws(DBusError) {
        var changed = rules
        guard changed.setSaver(on, for: user) else { return }
        try apply(changed, to: nil, of: user)
    }

    func removeLimit(of application: String, user: UInt32) throws(DBusError) {
        var changed = rules
        guard changed.remove(application, of: user) else { return }
        try apply(changed, to: application, of: user)
    }

    /// Keeps the changed rules, written first (a change that cannot be kept is refused, and changes nothing),
    /// then holds the app's running cgroups to its rule now; every app of the user's, for a change of their saver
    /// (`application` nil).
    private func apply(_ changed: LimitRules, to application: String?, of user: UInt32) throws(DBusError) {
        if let directory, !Self.file.write(changed, to: directory, logger: kernel.logger) {
            throw DBusError(.failed, "the limits cannot be kept in \(directory); see the service's journal")
        }
        rules = changed
        kernel.newEntriesMustWake = !rules.isEmpty
        var held = 0
        for (cgroupID, path) in kernel.paths.tree.allPaths() {
            guard TrafficVisibility.owner(ofCgroup: path) == user,
                  let app = CgroupApplication(path: path, tree: kernel.paths.tree),
                  application == nil || app.application == application
            else { continue }
            named[cgroupID] = (user, app.application)
            if hold(cgroupID, to: rules.holding(of: app.application, user: user), path: path) { held += 1 }
        }
        if let application {
            let limit = rules.holding(of: application, user: user)
            kernel.logger.info("user \(user)'s limit of \(application): \(limit.map(Self.words) ?? "none") (\(held) running)")
        } else {
            kernel.logger.info("user \(user)'s data saver is \(rules.saverUsers.contains(user) ? "on" : "off") (\(held) apps running)")
        }
    }

    // MARK: Cgroups

    private func name(_ cgroupID: UInt64, socketOwner: UInt32, at now: MonotonicTime) {
        switch kernel.paths.path(of: cgroupID, at: now, lookingFirstIn: places(socketOwner: socketOwner)) {
        case .found(let path):
            unnamed[cgroupID] = nil
            let owner = TrafficVisibility.owner(ofCgroup: path)
            guard let app = CgroupApplication(path: path, tree: kernel.paths.tree) else {
                named[cgroupID] = .some(nil)
                return
            }
            named[cgroupID] = (owner, app.application)
            if let limit = rules.holding(of: app.application, user: owner) { hold(cgroupID, to: limit, path: path) }
        case .notYet:
            unnamed[cgroupID] = socketOwner
        case .gone:
            unnamed[cgroupID] = nil
        }
    }

    /// Where a new cgroup that a rule may hold would be: the user's manager's slices when the socket's owner has
    /// rules (a desktop's apps, `…/user@UID.service/app.slice/app-….scope`), the machine's services' slice when
    /// root has.
    private func places(socketOwner: UInt32) -> [String] {
        var places: [String] = []
        if socketOwner != 0, rules.holdsApps(of: socketOwner) {
            places.append("/user.slice/user-\(socketOwner).slice/user@\(socketOwner).service")
        }
        if rules.holdsApps(of: 0) { places.append("/system.slice") }
        return places
    }

    @discardableResult
    private func hold(_ cgroupID: UInt64, to limit: AppLimit?, path: String) -> Bool {
        let before = kernel.limit(of: cgroupID)
        guard kernel.setLimit(limit, of: cgroupID) else {
            kernel.logger.warning("cannot limit \(path): at most \(TrafficCounters.heldCapacity) apps may be paused or limited at once")
            return false
        }
        if let limit { kernel.logger.debug("\(path) is limited to \(Self.words(limit))") }
        if before != limit { onHeld?(cgroupID) }
        return true
    }

    /// Lets go of the cgroups that went away, and forgets the names of those.
    private func prune() {
        let paths = kernel.paths.tree.allPaths()
        for cgroupID in kernel.limitedCgroups.keys where paths[cgroupID] == nil { _ = kernel.setLimit(nil, of: cgroupID) }
        named = named.filter { paths[$0.key] != nil }
        nextPrune = nil
    }

    static func words(_ limit: AppLimit) -> String {
        [limit.down.map { "\($0) B/s down" }, limit.up.map { "\($0) B/s up" },
         limit.exemptFromPlans ? "past used-up plans" : nil,
         limit.onMetered.map { "on metered networks: \($0.word)" }].compactMap { $0 }.joined(separator: ", ")
    }

    // MARK: The file

    static let file = RulesFile<LimitRules>(name: fileName, words: "the limits",
                                            maximumSize: LimitRulesFileFormat.maximumSize,
                                            encode: LimitRulesFileFormat.encode, decode: LimitRulesFileFormat.decode,
                                            count: { $0.byUser.values.map(\.count).reduce(0, +) })
}

extension LimitRuleError: DBusErrorConvertible {
    public var dbusError: DBusError {
        switch self {
        case .invalidApplication, .invalidRate: DBusError(.invalidArgs, description)
        case .tooManyRules: DBusError(.limitExceeded, description)
        }
    }
}
