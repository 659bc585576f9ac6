// SPDX-License-Identifier: Apache-2.0
/// Signals built once and sent as copies, one per distinct key.
///
/// Building a signal through libdbus costs tens of thousands of instructions (each container is validated and
/// measured as it is closed, about 50,000 for a `PropertiesChanged`), while a copy (`dbus_message_copy`) is a few
/// memcpys; a service whose state goes back and forth sends the same few signals over and over.
///
/// Inlinable, so that it is specialized for its key where it is used: it is on the path of every change.
public struct SignalCache<Key: Hashable> {
    /// Bounded, since keys may go on differing (counts): when full it starts again, at one build per key after.
    @usableFromInline let capacity: Int
    @usableFromInline var signals: [Key: Message] = [:]

    @inlinable
    public init(capacity: Int = 64) {
        self.capacity = capacity
    }

    /// A copy of the signal kept under `key`, built by `build` first if there is none; libdbus numbers the copy
    /// when it is sent.
    @inlinable
    public mutating func signal(for key: Key, build: () -> Message) -> Message {
        if let signal = signals[key] { return signal.copy() }
        if signals.count >= capacity { signals.removeAll() }
        let signal = build()
        signals[key] = signal
        return signal.copy()
    }
}
