// SPDX-License-Identifier: Apache-2.0
public import DBusKit

/// Every member of `org.example.NetworkActivity`, declared once, as `dbus/org.example.NetworkActivity.xml`
/// defines it: the service binds its handlers to these (`ServiceContractTests` compares them with the XML), and
/// every client builds its calls and reads their replies with them (`ServiceCall`).
public enum ServiceMembers {
    private static let interface = ServiceNames.interface

    // MARK: Activities

    public static let begin = Method("Begin", of: interface, Argument<String>("label"), output: Argument<UInt32>("id"))
    public static let beginWithTimeout = Method(
        "BeginWithTimeout", of: interface, Argument<String>("label"), Argument<UInt32>("seconds"),
        output: Argument<UInt32>("id"))
    public static let end = Method("End", of: interface, Argument<UInt32>("id"))
    public static let cancel = Method("Cancel", of: interface, output: Argument<UInt32>("count"))
    public static let reset = Method("Reset", of: interface, output: Argument<UInt32>("count"))
    public static let listActivities = Method(
        "ListActivities", of: interface, output: Argument<[ActivityRecord]>("activities"))

    // MARK: Progress and stop

    public static let setProgress = Method(
        "SetProgress", of: interface, Argument<UInt32>("id"), Argument<UInt32>("percent"))
    public static let setTransfer = Method(
        "SetTransfer", of: interface, Argument<UInt32>("id"), Argument<UInt64>("done"), Argument<UInt64>("total"))
    public static let setCancellable = Method(
        "SetCancellable", of: interface, Argument<UInt32>("id"), Argument<Bool>("cancellable"))
    public static let requestCancel = Method("RequestCancel", of: interface, Argument<UInt32>("id"))
    public static let getActivities = Method(
        "GetActivities", of: interface, output: Argument<[ActivityDetails]>("activities"))

    // MARK: History

    public static let getHistory = Method(
        "GetHistory", of: interface, Argument<UInt32>("max"), output: Argument<[ActivityDetails]>("entries"))
    public static let clearHistory = Method("ClearHistory", of: interface, output: Argument<UInt32>("count"))
    /// At most once a second, when entries were added or cleared.
    public static let historyChanged = Signal("HistoryChanged", of: interface)

    // MARK: Signals and properties

    /// Sent once per change of `Visible`.
    public static let visibilityChanged = Signal("VisibilityChanged", of: interface, Argument<Bool>("visible"))
    /// At most once per 50 ms: every record begun or changed since the last, and the ids ended.
    public static let activitiesChanged = Signal(
        "ActivitiesChanged", of: interface, Argument<[ActivityDetails]>("changed"), Argument<[UInt32]>("ended"))
    /// Sent to the connection that will stop the activity alone.
    public static let cancelRequested = Signal("CancelRequested", of: interface, Argument<UInt32>("id"))
    /// Whether the indicator should show now.
    public static let visible = Property<Bool>("Visible", of: interface)
    /// How many activities are active.
    public static let activeCount = Property<UInt32>("ActiveCount", of: interface)
    /// Whether apps' measured traffic shows as activities: a word of `TrafficCounting`.
    public static let traffic = Property<String>("Traffic", of: interface)
    /// Why it does not, in words for people (as the service's journal says it); empty while it counts.
    public static let trafficReason = Property<String>("TrafficReason", of: interface)

    /// Every member above, for the contract test's count.
    public static let all: [any InterfaceMember] = [
        begin, beginWithTimeout, end, cancel, reset, listActivities, setProgress, setTransfer, setCancellable,
        requestCancel, getActivities, getHistory, clearHistory, visibilityChanged, activitiesChanged, cancelRequested,
        historyChanged, visible, activeCount, traffic, trafficReason,
    ]
}

/// The words of the `Traffic` property, which programs compare; the reason for people is `TrafficReason`.
public enum TrafficCounting: String, Sendable, CaseIterable {
    /// The kernel counts, and apps' traffic shows (in a session: the system service counts, for this user's apps and
    /// the machine's services).
    case counting
    /// Not asked for: the service was started without `--traffic`.
    case off
    /// Asked for, but the kernel, the service's privileges or (for a session) the system service do not count.
    case unavailable
}
