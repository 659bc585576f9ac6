// SPDX-License-Identifier: Apache-2.0
/// A program that announces its network work on the bus in a protocol of its own, which the service follows so
/// that the work shows like any caller's activity.
public enum ActivitySource: String, Sendable, Hashable, CaseIterable {
    /// PackageKit's transactions while they download (`PackageKitTransaction`).
    case packagekit
    /// Progress that listed apps show on their launcher (`LauncherEntries`).
    case launcher
    /// What apps move on the network, as the kernel counts it per cgroup (`TrafficWatch`): for the system service.
    case traffic

    /// The sources that a service follows on a bus, which `--no-source` may leave out.
    public static let followedOnBuses: [ActivitySource] = [.packagekit, .launcher]
}

/// What a source says of one piece of its work, each time something of it changes.
public struct SourceReport: Sendable, Equatable {
    public var label: ActivityLabel
    /// Who speaks for the work, as `owner` shows it: the source's bus name and what it names the work by.
    public var owner: String
    /// The application behind the work (a desktop file id or a command name), when known.
    public var application: String?
    /// The Unix user the work counts against, when known.
    public var user: UInt32?
    public var processID: UInt32?
    /// 0 to 100, when known.
    public var percent: UInt32?
    /// Bytes per second, when known.
    public var rate: UInt64?
    /// Bytes moved since it began, and of them received and sent, when measured.
    public var done: UInt64?
    public var received: UInt64?
    public var sent: UInt64?
    /// The one user who may learn that the work exists, besides root and the service's own user
    /// (`AccessRules.maySee`): a user's app's measured traffic. Nil for work that everyone may see.
    public var privateTo: UInt32?
    /// The cgroup the work runs in, from the tree's root, when known: work where a caller's own activity runs
    /// joins that activity instead of showing as a row of its own.
    public var cgroup: String?
    /// Whether the kernel may hold the work's packets back (`Pause`), and whether it does.
    public var pausing: Pausing
    /// The speed limit a rule holds the work's app to; nil for none.
    public var limit: AppLimit?

    public init(label: ActivityLabel, owner: String, application: String? = nil, user: UInt32? = nil,
                processID: UInt32? = nil, percent: UInt32? = nil, rate: UInt64? = nil, done: UInt64? = nil,
                received: UInt64? = nil, sent: UInt64? = nil, privateTo: UInt32? = nil, cgroup: String? = nil,
                pausing: Pausing = .notPausable, limit: AppLimit? = nil) {
        self.label = label
        self.owner = owner
        self.application = application
        self.user = user
        self.processID = processID
        self.percent = percent
        self.rate = rate
        self.done = done
        self.received = received
        self.sent = sent
        self.privateTo = privateTo
        self.cgroup = cgroup
        self.pausing = pausing
        self.limit = limit
    }
}

/// Whether the kernel may hold a piece of work's packets back (`Pause`), and whether it does.
public enum Pausing: Sendable, Equatable {
    /// Work that only its program could stop: all but an app's measured traffic.
    case notPausable
    case running
    case paused
}

/// One piece of a source's work while it is an activity.
public struct SourceActivity: Sendable, Equatable {
    public let id: ActivityID
    public let item: SourceWorkItem
    /// Microseconds since the Unix epoch.
    public let startedAt: UInt64
    public internal(set) var report: SourceReport

    public var source: ActivitySource { item.source }
}

extension ActivityLabel {
    /// A label made of what a source sent, which no caller checked: control characters become spaces, and it is
    /// cut to the longest whole characters that fit.
    public init(sanitizing text: String) {
        self.init(trusted: Self.sanitized(text, atMost: Self.maximumByteCount))
    }

    /// What another program named (a source's label, NetworkManager's connection), fit to print and keep:
    /// control characters become spaces (no terminal escape reaches a table), cut to the longest whole
    /// characters within `byteCount` bytes.
    public static func sanitized(_ text: String, atMost byteCount: Int) -> String {
        var cleaned = String(String.UnicodeScalarView(text.unicodeScalars.map { $0.isControlCharacter ? " " : $0 }))
        while cleaned.utf8.count > byteCount { cleaned.removeLast() }
        return cleaned
    }
}
