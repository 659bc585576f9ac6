// SPDX-License-Identifier: Apache-2.0
public import DBusKit

/// KDE Plasma's job tracker: `org.kde.JobViewServer`, which gives a view per job, and the view's
/// `org.kde.JobViewV2`, which the tray tells a job's progress; declared once.
public enum JobViewInterface {
    public static let server = RemoteObject("org.kde.JobViewServer", at: "/JobViewServer", "org.kde.JobViewServer")
    public static let viewInterface: InterfaceName = "org.kde.JobViewV2"
    /// `requestView`'s capability: the job can be stopped (a Stop button).
    public static let killable: Int32 = 1

    /// A new view for a job of an application (its name and icon) with these capabilities; returns its path.
    public static let requestView = Method(
        "requestView", of: server.interface, Argument<String>("appName"), Argument<String>("appIconName"),
        Argument<Int32>("capabilities"), output: Argument<ObjectPath>("view"))

    // The view's methods, all NoReply.
    public static let setInfoMessage = Method("setInfoMessage", of: viewInterface, Argument<String>("message"))
    public static let setTotalAmount = Method(
        "setTotalAmount", of: viewInterface, Argument<UInt64>("amount"), Argument<String>("unit"))
    public static let setProcessedAmount = Method(
        "setProcessedAmount", of: viewInterface, Argument<UInt64>("amount"), Argument<String>("unit"))
    public static let setPercent = Method("setPercent", of: viewInterface, Argument<UInt32>("percent"))
    public static let setSpeed = Method("setSpeed", of: viewInterface, Argument<UInt64>("bytesPerSecond"))
    public static let terminate = Method("terminate", of: viewInterface, Argument<String>("errorMessage"))
    /// The person asked the job to stop.
    public static let cancelRequested = Signal("cancelRequested", of: viewInterface)
}
