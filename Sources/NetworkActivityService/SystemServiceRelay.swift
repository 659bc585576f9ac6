// SPDX-License-Identifier: Apache-2.0
import DBusKit
import NetworkActivity
import NetworkActivityInterface

/// A session service's objects of the interfaces that the system service answers for each user: the data usage,
/// pausing, speed limits and data plans. Every call of them is passed on whole to the system service, as the session's user, and its
/// reply, an error included, passed back whole; their signals, which the system service sends to this session's
/// connection, go on to the whole session bus. So the session holds no code of theirs: a new interface of the
/// kind is a line of `interfaces`.
final class SystemServiceRelay {
    /// An interface passed on, with its members and the XML its object answers `Introspect` with.
    struct Relayed {
        let name: InterfaceName
        let members: [any InterfaceMember]
        let introspectionXML: String

        var path: ObjectPath { ServiceNames.objectPath(serving: name) }
    }

    static let interfaces = [
        Relayed(name: ServiceNames.usageInterface, members: UsageMembers.all,
                introspectionXML: UsageEndpoint.introspectionXML),
        Relayed(name: ServiceNames.pauseInterface, members: PauseMembers.all,
                introspectionXML: PauseEndpoint.introspectionXML),
        Relayed(name: ServiceNames.limitsInterface, members: LimitsMembers.all,
                introspectionXML: LimitsEndpoint.introspectionXML),
        Relayed(name: ServiceNames.plansInterface, members: PlansMembers.all,
                introspectionXML: PlansEndpoint.introspectionXML),
    ]

    /// One object per interface, served on the session bus.
    private(set) var objects: [ServedObject] = []
    private let callers: CallerDirectory
    /// Where calls go: nil when the system service is not followed (`--no-system`).
    weak var systemService: SystemServiceFollower?
    /// The error while no system service answers.
    private let notCounting: () -> DBusError

    init(callers: CallerDirectory, send: @escaping (Message) -> Void, notCounting: @escaping () -> DBusError) {
        self.callers = callers
        self.notCounting = notCounting
        objects = Self.interfaces.map { relayed in
            let name = relayed.name
            let declaration = InterfaceDeclaration<SystemServiceRelay>(name, passingOn: relayed.members) {
                relay, call throws(DBusError) in try relay.passOn(call, of: name)
            }
            return ServedObject(self, at: relayed.path, interfaces: [declaration],
                                introspectionXML: relayed.introspectionXML, send: send)
        }
    }

    /// Passes `call` on; its reply comes back to the caller through the object that served it.
    private func passOn(_ call: Message, of interface: InterfaceName) throws(DBusError) {
        // A sandboxed app's connection is its own; passed on, the call would be the session's.
        try callers.refuseIfSandboxed(call.callerName, .usersInterface(interface.rawValue))
        guard let object = objects.first(where: { call.hasPath($0.path) }) else { return }
        let sent = systemService?.passOn(call) { [weak object] result in
            switch result {
            case .success(let reply): object?.answer(call, passingOn: reply)
            case .failure(let error): object?.answer(call, failing: error)
            }
        } ?? false
        guard sent else { throw notCounting() }
    }

    /// The match rules of the system service's signals to send on.
    static var signalRules: [MatchRule] {
        interfaces.map { MatchRule(sender: ServiceNames.busName, path: $0.path, interface: $0.name) }
    }

    /// A signal of a relayed interface from the system service: sent on to every listener of the session bus.
    func systemSignal(_ signal: Message) {
        guard let object = objects.first(where: { signal.hasPath($0.path) }) else { return }
        object.emit(signal.passedOn(to: nil))
    }
}
