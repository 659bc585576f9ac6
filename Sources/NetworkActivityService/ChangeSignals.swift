import DBusKit
import NetworkActivityInterface

/// The signals that tell listeners of a change: `VisibilityChanged` and `PropertiesChanged`.
///
/// Each distinct signal is built once and then sent as a copy. Building one through libdbus costs about 50,000
/// instructions (each container of `a{sv}` is validated and measured as it is closed), while a copy is a few
/// memcpys; and a service whose indicator goes on and off sends the same few signals over and over.
struct ChangeSignals {
    private struct Change: Hashable {
        let visible: Bool?
        let activeCount: UInt32?
    }

    /// Bounded, because counts differ: when full it starts again, which costs one build per signal after.
    private static let capacity = 64
    private var visibilitySignals: [Bool: Message] = [:]
    private var propertySignals: [Change: Message] = [:]

    mutating func visibilityChanged(_ visible: Bool) -> Message {
        copy(from: &visibilitySignals, visible) {
            let signal = Message.signal(path: ServiceNames.objectPath, interface: ServiceNames.interface,
                                        member: "VisibilityChanged")
            signal.append(visible)
            return signal
        }
    }

    /// `PropertiesChanged` for the properties that changed, all in one signal; nil means unchanged.
    mutating func propertiesChanged(visible: Bool?, activeCount: UInt32?) -> Message {
        copy(from: &propertySignals, Change(visible: visible, activeCount: activeCount)) {
            let signal = Message.signal(path: ServiceNames.objectPath, interface: ServiceNames.properties,
                                        member: "PropertiesChanged")
            signal.appendArguments { arguments in
                arguments.append(ServiceNames.interface.rawValue)
                arguments.appendArray(elementSignature: "{sv}") { changed in
                    if let visible {
                        changed.appendDictEntry { entry in
                            entry.append("Visible")
                            entry.appendVariant(signature: Bool.dbusSignature) { $0.append(visible) }
                        }
                    }
                    if let activeCount {
                        changed.appendDictEntry { entry in
                            entry.append("ActiveCount")
                            entry.appendVariant(signature: UInt32.dbusSignature) { $0.append(activeCount) }
                        }
                    }
                }
                arguments.appendArray(elementSignature: String.dbusSignature) { _ in }
            }
            return signal
        }
    }

    /// A copy of the signal kept under `key`, built first if there is none; libdbus sends and numbers the copy.
    private func copy<Key>(from signals: inout [Key: Message], _ key: Key, build: () -> Message) -> Message {
        if let signal = signals[key] { return signal.copy() }
        if signals.count >= Self.capacity { signals.removeAll() }
        let signal = build()
        signals[key] = signal
        return signal.copy()
    }
}
