// SPDX-License-Identifier: Apache-2.0
public import DBusKit

/// The service's own error names, all in one place.
extension ErrorName {
    /// `End` of an id that is not active (never was, or has already ended).
    public static let unknownActivity: ErrorName = "org.example.NetworkActivity.Error.UnknownActivity"
    /// `End` of an activity that belongs to another caller.
    public static let notOwner: ErrorName = "org.example.NetworkActivity.Error.NotOwner"
    /// A `Begin` past the service's per-caller or total limit.
    public static let limitExceeded: ErrorName = "org.example.NetworkActivity.Error.LimitExceeded"
    /// A `RequestCancel` of an activity that nobody has said it will stop.
    public static let notCancellable: ErrorName = "org.example.NetworkActivity.Error.NotCancellable"
    /// `Pause` or `Resume` of an activity that is not an app's measured traffic.
    public static let notPausable: ErrorName = "org.example.NetworkActivity.Error.NotPausable"
    /// `GetUsage` or `ClearUsage` where nothing counts apps' traffic (no `--traffic`; the kernel, the privileges
    /// or, for a session, the system service do not count).
    public static let notCountingTraffic: ErrorName = "org.example.NetworkActivity.Error.NotCountingTraffic"
    /// A sandboxed app (Flatpak's) asking for what is the user's or another app's: usage, history, pausing,
    /// another app's stop, `Reset`.
    public static let sandboxed: ErrorName = "org.example.NetworkActivity.Error.Sandboxed"
}
