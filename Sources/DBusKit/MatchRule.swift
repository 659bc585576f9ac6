// SPDX-License-Identifier: Apache-2.0
/// A bus match rule for signals, sent to the bus with `AddMatch` and checked again locally to route a signal to
/// the subscription that asked for it.
public struct MatchRule: Sendable, Hashable, CustomStringConvertible {
    public var sender: BusName?
    public var path: ObjectPath?
    public var interface: InterfaceName?
    public var member: MemberName?
    /// String arguments that must match exactly, by position (`arg0='…'`).
    public var arguments: [Int: String]

    public init(
        sender: BusName? = nil, path: ObjectPath? = nil, interface: InterfaceName? = nil,
        member: MemberName? = nil, arguments: [Int: String] = [:]
    ) {
        self.sender = sender
        self.path = path
        self.interface = interface
        self.member = member
        self.arguments = arguments
    }

    /// The rule in the bus's syntax, e.g. `type='signal',sender='org.freedesktop.DBus',member='NameOwnerChanged'`.
    public var description: String {
        var parts = ["type='signal'"]
        if let sender { parts.append("sender='\(sender)'") }
        if let path { parts.append("path='\(path)'") }
        if let interface { parts.append("interface='\(interface)'") }
        if let member { parts.append("member='\(member)'") }
        for (index, value) in arguments.sorted(by: { $0.key < $1.key }) {
            // Quotes inside a value are written as '\'' in the match rule syntax.
            let escaped = value.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''")
            parts.append("arg\(index)='\(escaped)'")
        }
        return parts.joined(separator: ",")
    }

    /// Whether `message` is a signal this rule selects. A signal addressed to this connection reaches it whatever
    /// its rules, so a sender that messages carry as it is written (the bus driver, a unique name) is checked here:
    /// else any peer could speak in the bus's name, say that a caller left or that the name was lost. A
    /// well-known sender name is not resolved here; for broadcast signals the bus has checked it.
    func matches(_ message: Message) -> Bool {
        guard message.type == .signal else { return false }
        if let sender, sender == Connection.busDriverName || sender.rawValue.hasPrefix(":"),
           !message.hasSender(sender) { return false }
        if let path, !message.hasPath(path) { return false }
        if let interface, !message.hasInterface(interface) { return false }
        if let member, !message.hasMember(member) { return false }
        if let last = arguments.keys.max() {
            var reader = message.arguments()
            for index in 0...last {
                guard let expected = arguments[index] else {
                    reader.skip()
                    continue
                }
                guard reader.readStringOrPath() == expected else { return false }
            }
        }
        return true
    }
}
