// SPDX-License-Identifier: Apache-2.0

/// What a rule does with an app while it moves on a metered network (NetworkManager's `Metered` yes or guess-yes),
/// as Android's per-app background-data switch does (`netactivity limit APP --metered pause|RATE|allow`).
public enum MeteredRule: Sendable, Hashable {
    /// Its packets on a metered network are dropped, both ways.
    case pause
    /// Held to this many bytes a second each way on a metered network (and to its own limit, if slower).
    case slow(UInt64)
    /// It goes on as anywhere else, even while the user's data saver is on.
    case allow

    /// The words the command, the D-Bus interface and the limits file give it: `pause`, `allow`, or the rate in
    /// bytes a second.
    public var word: String {
        switch self {
        case .pause: "pause"
        case .allow: "allow"
        case .slow(let rate): String(rate)
        }
    }

    /// The rule a word names (`word`); nil for none, or for a rate of 0.
    public init?(word: some StringProtocol) {
        switch word {
        case "pause": self = .pause
        case "allow": self = .allow
        default:
            guard let rate = UInt64(word), rate > 0 else { return nil }
            self = .slow(rate)
        }
    }
}
