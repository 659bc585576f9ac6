// SPDX-License-Identifier: Apache-2.0
import ServiceHarness
import DBusKit
import NetworkActivityInterface

/// One argument of a fuzzed call, of any of the types the fuzzer sends.
enum FuzzValue {
    case string(String), uint32(UInt32), int32(Int32), bool(Bool), double(Double), uint64(UInt64)
    case path(ObjectPath), strings([String]), variant(UInt32)

    var signature: String {
        switch self {
        case .string: "s"
        case .uint32: "u"
        case .int32: "i"
        case .bool: "b"
        case .double: "d"
        case .uint64: "t"
        case .path: "o"
        case .strings: "as"
        case .variant: "v"
        }
    }

    func append(to writer: inout MessageWriter) {
        switch self {
        case .string(let value): writer.append(value)
        case .uint32(let value): writer.append(value)
        case .int32(let value): writer.append(value)
        case .bool(let value): writer.append(value)
        case .double(let value): writer.append(value)
        case .uint64(let value): writer.append(value)
        case .path(let value): writer.append(value)
        case .strings(let value): writer.append(value)
        case .variant(let value): writer.append(Variant(value))
        }
    }
}

/// A call the fuzzer sends: where to, what, with which arguments, and whether it asks for a reply.
struct FuzzCall: CustomStringConvertible {
    var path: ObjectPath
    var interface: InterfaceName?
    var member: MemberName
    var arguments: [FuzzValue]
    var expectsReply: Bool

    var signature: String { arguments.map(\.signature).joined() }

    var message: Message {
        let message = Message.methodCall(destination: ServiceNames.busName, path: path, interface: interface,
                                         member: member)
        message.appendArguments { writer in
            for argument in arguments { argument.append(to: &writer) }
        }
        message.expectsReply = expectsReply
        return message
    }

    var description: String {
        let shown = arguments.map { argument -> String in
            let text = "\(argument)"
            return text.count > 60 ? "\(text.prefix(60))… (\(text.utf8.count) bytes)" : text
        }
        return "\(path) \(interface?.rawValue ?? "(no interface)").\(member)(\(signature): "
            + "\(shown.joined(separator: ", ")))\(expectsReply ? "" : " no-reply")"
    }
}

/// Random calls, most of them close to valid ones, so that they reach the service's checks.
struct FuzzCallMaker {
    /// Every method the object answers, from the declarations; the model (`FuzzModel`) says what each should do
    /// from the README's rules, by its name on the wire.
    static let members: [(InterfaceName, MemberName, signature: String)] = [
        declared(ServiceMembers.begin), declared(ServiceMembers.beginWithTimeout), declared(ServiceMembers.end),
        declared(ServiceMembers.cancel), declared(ServiceMembers.reset), declared(ServiceMembers.listActivities),
        declared(ServiceMembers.setProgress), declared(ServiceMembers.setTransfer),
        declared(ServiceMembers.setCancellable), declared(ServiceMembers.requestCancel),
        declared(ServiceMembers.getActivities), declared(PauseMembers.pause), declared(PauseMembers.resume),
        declared(UsageMembers.getUsage), declared(UsageMembers.clearUsage),
        declared(StandardInterface.get), declared(StandardInterface.getAll),
        declared(StandardInterface.set), declared(StandardInterface.introspect), declared(StandardInterface.ping),
        // Answered by libdbus, and declared nowhere here.
        (StandardInterface.peer, "GetMachineId", ""),
    ]

    private static func declared<each Input, Output>(_ method: Method<repeat each Input, Output>)
        -> (InterfaceName, MemberName, signature: String)
    {
        (method.interface, method.name, method.inputSignature)
    }
    static let standard = [StandardInterface.properties, StandardInterface.introspectable, StandardInterface.peer]
    static let servicePaths = [ServiceNames.objectPath, ServiceNames.usagePath, ServiceNames.pausePath]
    static let otherPaths: [ObjectPath] = ["/", "/org", "/org/example", "/org/example/NetworkActivity/child", "/x"]
    static let otherInterfaces: [InterfaceName] = ["org.example.Nothing", "org.freedesktop.DBus.ObjectManager",
                                                  "org.example.NetworkActivity.Error"]
    static let otherMembers: [MemberName] = ["Begun", "begin", "Frobnicate", "End2", ServiceMembers.visibilityChanged.name, MemberName(stringLiteral: ServiceMembers.visible.name)]

    static let strings: [String] = [
        "", "mail", "ünïcödé ✉", "<b>&amp;</b>", "\"quoted\" \\ back", "\u{202E}rtl", "tab\there", "bell\u{7}",
        "del\u{7F}", "c1\u{85}", String(repeating: "x", count: 256), String(repeating: "é", count: 129),
        String(repeating: "y", count: 257), String(repeating: "z", count: 100_000), ServiceMembers.visible.name, ServiceMembers.activeCount.name,
        "org.example.NetworkActivity", "org.freedesktop.DBus.Properties", "/org/example/NetworkActivity",
        "2026-11-28", "2026-02-31", "2026-11-28\n",
    ]

    var random: SeededGenerator

    mutating func call(ids: [UInt32], nextID: UInt32) -> FuzzCall {
        let chosen = Self.members.randomElement(using: &random)!
        // The object of the chosen interface (the standard ones: any of the service's objects).
        var path = Self.standard.contains(chosen.0) ? Self.servicePaths.randomElement(using: &random)!
            : ServiceNames.objectPath(serving: chosen.0)
        if random.chance(0.08) { path = Self.otherPaths.randomElement(using: &random)! }
        var (interface, member) = (chosen.0, chosen.1)
        let signature = chosen.signature
        var maybeInterface: InterfaceName? = interface
        switch Double.random(in: 0..<1, using: &random) {
        case ..<0.05: member = Self.otherMembers.randomElement(using: &random)!
        case ..<0.09: interface = Self.otherInterfaces.randomElement(using: &random)!; maybeInterface = interface
        case ..<0.15: maybeInterface = nil
        default: break
        }
        var arguments = random.chance(0.7)
            ? signature.map { value(of: $0, ids: ids, nextID: nextID) }
            : (0..<Int.random(in: 0...3, using: &random)).map { _ in
                value(of: Array("sssuuuibdtoav").randomElement(using: &random)!, ids: ids, nextID: nextID)
            }
        if member == ServiceMembers.beginWithTimeout.name, arguments.count == 2, case .uint32 = arguments[1] {
            arguments[1] = .uint32(timeout())
        }
        if member == ServiceMembers.setProgress.name, arguments.count == 2, case .uint32 = arguments[1] {
            arguments[1] = .uint32([0, 50, 100, 101, .max].randomElement(using: &random)!)
        }
        if member == ServiceMembers.setTransfer.name, arguments.count == 3, case .uint64 = arguments[1] {
            // Mostly valid amounts, so that transfers are taken and compared; some done past the total.
            let total = [0, 1, 1000, UInt64.max].randomElement(using: &random)!
            let done = random.chance(0.8) ? UInt64.random(in: 0...max(total, 1), using: &random) : total &+ 1
            arguments[1] = .uint64(done)
            arguments[2] = .uint64(total)
        }
        return FuzzCall(path: path, interface: maybeInterface, member: member, arguments: arguments,
                        expectsReply: !random.chance(0.1))
    }

    private mutating func value(of type: Character, ids: [UInt32], nextID: UInt32) -> FuzzValue {
        switch type {
        case "s": .string(Self.strings.randomElement(using: &random)!)
        case "u": .uint32(id(ids: ids, nextID: nextID))
        case "i": .int32(Int32.random(in: .min ... .max, using: &random))
        case "b": .bool(random.chance(0.5))
        case "d": .double(Double.random(in: -1e9...1e9, using: &random))
        case "t": .uint64(UInt64.random(in: 0...UInt64.max, using: &random))
        case "o": .path(Self.otherPaths.randomElement(using: &random)!)
        case "a": .strings(Array(Self.strings.prefix(Int.random(in: 0...4, using: &random))))
        default: .variant(UInt32.random(in: 0...UInt32.max, using: &random))
        }
    }

    /// A live id, or one that is not: 0, the largest, one no live activity has, or any.
    private mutating func id(ids: [UInt32], nextID: UInt32) -> UInt32 {
        switch Int.random(in: 0..<10, using: &random) {
        case 0..<5 where !ids.isEmpty: ids.randomElement(using: &random)!
        case 5: 0
        case 6: .max
        case 7: nextID
        default: UInt32.random(in: 1...UInt32.max, using: &random)
        }
    }

    /// A timeout: valid ones longer than any fuzz run (so that none falls due during it), or 0, 86,401, the largest.
    private mutating func timeout() -> UInt32 {
        [0, 86_401, .max, 86_400, UInt32.random(in: 3600...86_400, using: &random)].randomElement(using: &random)!
    }
}
