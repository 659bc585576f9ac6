// SPDX-License-Identifier: Apache-2.0
public import DBusKit

/// One entry of `ListActivities`, `(usstt)`: what the service tells of an active activity.
public struct ActivityRecord: DBusCodable, Hashable, Sendable {
    /// `(usstt)`.
    public static var dbusSignature: String { "(usstt)" }

    /// The id that `Begin` or `BeginWithTimeout` returned.
    public var id: UInt32
    /// The unique bus name of the connection that began it, such as `:1.42`.
    public var owner: String
    /// What the activity is, for people.
    public var label: String
    /// When it began, in microseconds since the Unix epoch.
    public var startedAt: UInt64
    /// When it ends by itself, in microseconds since the Unix epoch; nil for an activity begun with `Begin`.
    public var deadline: UInt64?

    /// A record with these values.
    public init(id: UInt32, owner: String, label: String, startedAt: UInt64, deadline: UInt64?) {
        self.id = id
        self.owner = owner
        self.label = label
        self.startedAt = startedAt
        self.deadline = deadline
    }

    /// Writes the record as `(usstt)`, the missing deadline as 0.
    public func encode(to writer: inout MessageWriter) {
        // On the wire, 0 stands for "no deadline".
        writer.appendStruct(of: id, owner, label, startedAt, deadline ?? 0)
    }

    /// Reads a `(usstt)` record; a deadline of 0 becomes nil.
    public init(from reader: inout MessageReader) throws(DBusError) {
        self = try reader.readStruct(Self.dbusSignature) { (fields: inout MessageReader) throws(DBusError) in
            let id = try fields.read(UInt32.self)
            let owner = try fields.read(String.self)
            let label = try fields.read(String.self)
            let startedAt = try fields.read(UInt64.self)
            let deadline = try fields.read(UInt64.self)
            return ActivityRecord(id: id, owner: owner, label: label, startedAt: startedAt,
                                  deadline: deadline == 0 ? nil : deadline)
        }
    }
}
