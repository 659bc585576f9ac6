// SPDX-License-Identifier: Apache-2.0
package import DBusKit
internal import NetworkActivityInterface

/// Follows the indicator's state on a connection's loop thread, for `indicatorStates()` on the library's loop and
/// for the tray on its own: `Visible` and `ActiveCount`, read once per service with `GetAll` and then
/// followed through `PropertiesChanged`, and the activities with their progress (`ActivityFollower`).
///
/// A change reaches the two signals a moment apart. The state is told at the end of the loop's turn (`flush`),
/// when both have usually come; when the count and the activities still disagree, both are read again once, and the
/// state is told after the replies, whatever they say.
package final class IndicatorFollower {
    private unowned let connection: Connection
    private let readsActivities: Bool
    private let onChange: (IndicatorState) -> Void
    private var activities: ActivityFollower?
    private var owner = ""
    private var properties: ServiceProperties?
    /// Counts the reads of the properties, so that the reply to an earlier one is told apart; a read is on its way
    /// while `propertiesAnswered` is behind.
    private var propertiesAsked = 0
    private var propertiesAnswered = 0
    private var hasReadAgain = false
    private var isChanged = false
    private var shown: IndicatorState?
    private var isStopped = false

    /// Starts following on `connection`, whose loop thread this must be; `onChange` is given the state now and after
    /// each change, from `flush`.
    package init(on connection: Connection, readsActivities: Bool = true,
                 onChange: @escaping (IndicatorState) -> Void) throws(DBusError) {
        self.connection = connection
        self.readsActivities = readsActivities
        self.onChange = onChange
        if readsActivities {
            activities = ActivityFollower(connection: connection) { [unowned self] _ in isChanged = true }
            try connection.subscribe(to: .activitiesChanged) { [weak self] in self?.activities?.apply($0) }
        }
        try connection.followOwner(of: ServiceNames.busName) { [weak self] in self?.ownerChanged(to: $0) }
        try connection.subscribe(to: .servicePropertiesChanged) { [weak self] in self?.apply($0) }
        ownerChanged(to: (try? connection.nameOwner(of: ServiceNames.busName)) ?? "")
    }

    /// Tells nothing more, and reads nothing more.
    package func stop() {
        isStopped = true
        activities?.isStopped = true
    }

    /// Tells the state if it changed during the loop's turn: call at the end of each turn.
    package func flush() {
        guard isChanged, !isStopped else { return }
        guard !owner.isEmpty else { return tell(.serviceStopped) }
        let activities = activities.map { Array($0.activities.values).sorted(by: ActivityStatus.beganBefore) } ?? []
        // The first state waits for the first word of both, and a state for the reads on their way.
        guard let properties, propertiesAnswered == propertiesAsked, !(self.activities?.isReading ?? false) else {
            return
        }
        let state = IndicatorState(isServiceRunning: true, isVisible: properties.isVisible,
                                   activeCount: properties.activeCount, activities: activities)
        if readsActivities, Int(state.activeCount) != activities.count, !hasReadAgain {
            hasReadAgain = true
            readProperties()
            self.activities?.readAgain()
            return
        }
        hasReadAgain = false
        tell(state)
    }

    private func tell(_ state: IndicatorState) {
        isChanged = false
        guard state != shown else { return }
        shown = state
        onChange(state)
    }

    private func ownerChanged(to newOwner: String) {
        guard !isStopped, newOwner != owner || shown == nil else { return }
        owner = newOwner
        properties = nil
        isChanged = true
        activities?.ownerChanged(to: newOwner)
        if !newOwner.isEmpty { readProperties() }
    }

    private func readProperties() {
        propertiesAsked += 1
        let asked = (owner, propertiesAsked)
        connection.send(ServiceCall.properties.withoutAutoStart()) { [weak self] result in
            guard let self, !isStopped, asked == (owner, propertiesAsked) else { return }
            propertiesAnswered = propertiesAsked
            isChanged = true
            if case .success(let values) = result { properties = values }
        }
    }

    /// Applies `PropertiesChanged`, unless a read is on its way: the signal is then older than its reply.
    private func apply(_ signal: Message) {
        guard !isStopped, propertiesAnswered == propertiesAsked, var properties else { return }
        var arguments = signal.arguments()
        arguments.skip()
        guard let changed = try? arguments.read([String: ReceivedVariant].self) else { return }
        if let visible = try? changed[ServiceMembers.visible.name]?.decode(Bool.self) {
            properties.isVisible = visible
        }
        if let count = try? changed[ServiceMembers.activeCount.name]?.decode(UInt32.self) {
            properties.activeCount = count
        }
        self.properties = properties
        isChanged = true
    }
}
