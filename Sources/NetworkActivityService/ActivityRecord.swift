import DBusKit
import NetworkActivity

/// One entry of `ListActivities`: `(usstt)`, id, owner's unique name, label, start and deadline in microseconds
/// since the Unix epoch (deadline 0 when the activity has none).
struct ActivityRecord: DBusEncodable {
    static var dbusSignature: String { "(usstt)" }

    let activity: Activity

    func encode(to writer: inout MessageWriter) {
        writer.appendStruct { fields in
            fields.append(activity.id.rawValue)
            fields.append(activity.owner)
            fields.append(activity.label.text)
            fields.append(activity.startedAt)
            fields.append(activity.expiry?.wallClockDeadline ?? 0)
        }
    }
}
