/// The notification for activities that ended after lasting long: "backup finished after 12 min", or for several
/// at once, "3 activities finished" with one line each.
public struct FinishedActivities: Sendable, Equatable {
    /// Plain text.
    public let summary: String
    /// Plain text, one line per activity when there are several; escape it for hosts that read markup.
    public let body: String

    /// - Parameter activities: the label of each and how long it lasted, in order.
    public init(_ activities: [(label: String, duration: Duration)]) {
        let lines = activities.map { "\(ActivitySummary.displayed($0.label)) finished after \(ElapsedTime.coarse($0.duration))" }
        if lines.count == 1 {
            summary = lines[0]
            body = ""
        } else {
            summary = "\(lines.count) activities finished"
            body = lines.joined(separator: "\n")
        }
    }
}
