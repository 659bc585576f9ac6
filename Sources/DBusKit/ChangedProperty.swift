// SPDX-License-Identifier: Apache-2.0
/// A property's new value, for `ServedObject.makePropertiesChanged`.
public struct ChangedProperty {
    public let name: String
    let value: Variant

    public init<Value: DBusEncodable>(_ name: String, _ value: Value) {
        self.name = name
        self.value = Variant(value)
    }
}
