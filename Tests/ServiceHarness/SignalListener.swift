public import DBusKit
public import NetworkActivityInterface

/// A separate connection that listens to every signal of the service, in order, as a panel widget would.
public final class SignalListener {
    public let connection: Connection
    /// Every signal received so far, in order.
    public private(set) var history: [Message] = []

    public init(_ bus: PrivateBus) throws {
        connection = try bus.connect()
        for path in [ServiceNames.objectPath, ServiceNames.usagePath, ServiceNames.plansPath] {
            try connection.addMatch(MatchRule(sender: ServiceNames.busName, path: path))
        }
    }

    /// Reads the service's activities once (`GetActivities`), as a panel does first: from then on the service
    /// also tells this connection, alone, of changes to the private work its user may see.
    @discardableResult
    public func readActivities() throws -> [ActivityDetails] {
        try connection.call(ServiceMembers.getActivities.serviceCall(), timeout: .seconds(10))
    }

    /// Reads the data usage once (`GetUsage`): from then on the service tells this connection, alone, when rows
    /// it may see change (`UsageChanged`).
    @discardableResult
    public func readUsage() throws -> [UsageRecord] {
        try connection.call(UsageMembers.getUsage.serviceCall("", true), timeout: .seconds(10))
    }

    /// Waits for the next signal that `matches`, up to `timeout`; signals before it stay in the history.
    public func next(timeout: Duration = .seconds(10), _ matches: (Message) -> Bool) throws -> Message? {
        let deadline = ContinuousClock.now + timeout
        while let message = try connection.nextMessage(timeout: ContinuousClock.now.duration(to: deadline)) {
            guard message.type == .signal, message.path?.hasPrefix(ServiceNames.objectPath.rawValue) == true else { continue }
            history.append(message)
            if matches(message) { return message }
        }
        return nil
    }

    /// Waits for `VisibilityChanged(visible)`.
    public func awaitVisibility(_ visible: Bool, timeout: Duration = .seconds(10)) throws {
        guard try next(timeout: timeout, { visibility(of: $0) == visible }) != nil else {
            throw HarnessFailure("no VisibilityChanged(\(visible)) within \(timeout); saw \(visibilityHistory)")
        }
    }

    /// Makes sure every signal the service sent before now has arrived: a Peer.Ping round trip from this
    /// connection, since the bus keeps the order of one sender's messages to one receiver.
    public func settle() throws {
        _ = try connection.call(StandardInterface.ping.serviceCall(), timeout: .seconds(10))
        while let message = try connection.nextMessage(timeout: .zero) {
            if message.type == .signal, message.path == ServiceNames.objectPath.rawValue { history.append(message) }
        }
    }

    public var visibilityHistory: [Bool] { history.compactMap(visibility(of:)) }

    /// The changed properties of every `PropertiesChanged` so far.
    public var propertyChanges: [[String: ReceivedVariant]] {
        history.compactMap { message in
            guard message.member == StandardInterface.propertiesChanged.name.rawValue else { return nil }
            var reader = message.arguments()
            _ = try? reader.read(String.self)
            return try? reader.read([String: ReceivedVariant].self)
        }
    }
}

/// The value of a `VisibilityChanged` signal; nil for any other message.
public func visibility(of message: Message) -> Bool? {
    guard ServiceMembers.visibilityChanged.matches(message) else { return nil }
    var reader = message.arguments()
    return try? reader.read(Bool.self)
}
