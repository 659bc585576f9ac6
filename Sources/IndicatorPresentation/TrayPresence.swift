/// When the tray icon joins and leaves the tray. It follows `TrayAppearance.isInTray`, except that once joined it
/// stays at least `minimumStay`: an indicator that flickers would make hosts add and remove the item many times a
/// second, and hosts read an item for some time after it joins. An item kept in the tray only for its minimum stay
/// shows the idle look.
public struct TrayPresence: Sendable {
    public static let minimumStay: Duration = .seconds(1)

    public private(set) var isInTray = false
    /// When the item joined the tray; nil while it is out.
    private var joinedAt: ContinuousClock.Instant?

    public init() {}

    /// Whether the item is in the tray at `now`, when its appearance `wantsInTray` or not.
    public mutating func update(wantsInTray: Bool, at now: ContinuousClock.Instant) -> Bool {
        if wantsInTray {
            if !isInTray { joinedAt = now }
            isInTray = true
        } else if let joinedAt, now - joinedAt >= Self.minimumStay {
            isInTray = false
            self.joinedAt = nil
        }
        return isInTray
    }

    /// When an item that stays only for its minimum stay may leave; nil when it is out.
    public var earliestLeave: ContinuousClock.Instant? {
        joinedAt.map { $0 + Self.minimumStay }
    }
}
