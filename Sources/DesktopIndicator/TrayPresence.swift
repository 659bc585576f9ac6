// SPDX-License-Identifier: Apache-2.0
public import ProgramSupport

/// When the tray icon joins and leaves the tray. It follows `TrayAppearance.isInTray`, except that once joined it
/// stays at least `minimumStay`: an indicator that flickers would make hosts add and remove the item many times a
/// second, and hosts read an item for some time after it joins. Nor does it leave before the time its caller names
/// (when hosts have read the last change it announced). An item kept in the tray only for these shows the idle look.
public struct TrayPresence: Sendable {
    public static let minimumStay: Duration = .seconds(1)

    public private(set) var isInTray = false
    /// When the item joined the tray; nil while it is out.
    private var joinedAt: MonotonicTime?

    public init() {}

    /// Whether the item is in the tray at `now`, when its appearance `wantsInTray` or not. It leaves no sooner than
    /// `notBefore` either.
    public mutating func update(wantsInTray: Bool, at now: MonotonicTime,
                                notBefore: MonotonicTime? = nil) -> Bool {
        if wantsInTray {
            if !isInTray { joinedAt = now }
            isInTray = true
        } else if let leave = earliestLeave(notBefore: notBefore), now >= leave {
            isInTray = false
            joinedAt = nil
        }
        return isInTray
    }

    /// When an item that stays only for its minimum stay, or until `notBefore`, may leave; nil when it is out.
    public func earliestLeave(notBefore: MonotonicTime? = nil) -> MonotonicTime? {
        guard let joinedAt else { return nil }
        let stayOver = joinedAt + Self.minimumStay
        return notBefore.map { max($0, stayOver) } ?? stayOver
    }
}
