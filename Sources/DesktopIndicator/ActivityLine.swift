// SPDX-License-Identifier: Apache-2.0
import Localization
public import NetworkActivityClient
import NetworkActivityInterface
public import ProgramSupport

/// One activity in a line, as the tray's menu and tooltip, its notifications and the panel modules' tooltips tell
/// it: who and what it is, then how far it is.
extension ActivityStatus {
    /// The application that began it as people know it: the name in its desktop file ("Firefox"), otherwise what
    /// the service found (a command's name); nil when unknown. `status` shows it.
    public var applicationName: String? {
        self.application.map { desktopApplication?.name ?? $0 }
    }

    /// The icon in the desktop file of the application that began it.
    public var applicationIcon: String? { desktopApplication?.icon }

    /// What the desktop file of the application that began it says, when it has one.
    public var desktopApplication: DesktopApplication? {
        self.application.flatMap(DesktopApplications.installed.application)
    }

    /// Who and what, for the tray, notifications and panel tooltips: "Firefox: download" for an application with
    /// a desktop file, its name alone for an activity without a label; otherwise the label. A command's name is
    /// left out there: "python3" or "netactivity" tells a person less than the label already does.
    /// An activity that a source made says so after: "GNOME Software: Downloading firefox-esr (PackageKit)",
    /// "Chromium (launcher)".
    public var title: String {
        let what: String
        let label = self.label
        if let name = desktopApplication?.name {
            // TRANSLATORS: an application and its activity's label: "Firefox: download".
            // Measured traffic's label is only its app's id or name: the desktop file's name says it better.
            what = label.isEmpty || label == name || self.source == .traffic
                ? name : localized("%s: %s", name, ActivitySummary.displayed(label))
        } else {
            what = ActivitySummary.displayed(label)
        }
        // TRANSLATORS: an activity and the program that told of it: "Downloading firefox (PackageKit)".
        return self.source.map { localized("%s (%s)", what, Self.sourceName($0)) } ?? what
    }

    /// A source as people know it: "PackageKit", "launcher", "measured".
    static func sourceName(_ source: ActivityDetails.Source) -> String {
        switch source {
        case .packagekit: "PackageKit"
        case .launcher: localized("launcher")
        // TRANSLATORS: the source of an activity the kernel measured, which no program told of: "Firefox (measured)".
        case .traffic: localized("measured")
        default: source.rawValue
        }
    }

    /// How far it is, as far as that is known: "45 % · 3.2 MB/s", "1.2 MB · 3.2 MB/s" when only the amount moved
    /// is known; empty when nothing is.
    public var progressText: String {
        var facts: [String] = []
        if let percent = self.percent {
            // TRANSLATORS: a percent done: "45 %".
            facts.append(localized("%d %%", percent))
        } else if let done = self.done {
            facts.append(ByteAmount.text(done))
        }
        if self.isPaused == true {
            // TRANSLATORS: an app whose network the person paused, in place of its rate.
            facts.append(localized("paused"))
        } else if let rate = self.rate {
            facts.append(ByteAmount.rate(rate))
        }
        if let limit = limitText { facts.append(limit) }
        return facts.joined(separator: " · ")
    }

    /// What a speed limit holds the app to (`netactivity limit`): "limited to 2.0 MB/s down", "limited to 1.0 MB/s"
    /// both ways; nil for none.
    public var limitText: String? {
        switch (self.limitDown, self.limitUp) {
        case (let down?, let up?) where down == up:
            // TRANSLATORS: an app's speed limit, the same both ways, after its rate: "3.2 MB/s · limited to 1.0 MB/s".
            localized("limited to %s", ByteAmount.rate(down))
        case (let down?, let up?):
            // TRANSLATORS: an app's speed limit both ways, after its rate: "3.2 MB/s · limited to 2.0 MB/s down, 1.0 MB/s up".
            localized("limited to %s down, %s up", ByteAmount.rate(down), ByteAmount.rate(up))
        case (let down?, nil):
            // TRANSLATORS: an app's speed limit on what it receives: "limited to 2.0 MB/s down".
            localized("limited to %s down", ByteAmount.rate(down))
        case (nil, let up?):
            // TRANSLATORS: an app's speed limit on what it sends: "limited to 1.0 MB/s up".
            localized("limited to %s up", ByteAmount.rate(up))
        case (nil, nil): nil
        }
    }

    /// "Déjà Dup: backup — 45 % · 3.2 MB/s", or the title alone when nothing is known of its progress. Without its
    /// age: hosts keep a tooltip until the next change, and an age read there would stand still.
    public var summaryLine: String {
        let progress = progressText
        // TRANSLATORS: an activity and how far it is: "backup — 45 % · 3.2 MB/s".
        return progress.isEmpty ? title : localized("%s — %s", title, progress)
    }

    /// "Déjà Dup: backup — 45 % · 3.2 MB/s — 3 min": with its age at `time` (microseconds since the Unix epoch), for the
    /// menu, which is brought up to date as it opens.
    public func menuLine(at time: UInt64) -> String {
        // TRANSLATORS: an activity and how long it has been going: "backup — 45 % — 3 min".
        localized("%s — %s", summaryLine, ElapsedTime.coarse(age(at: time)))
    }

    /// Every activity's `summaryLine`, up to `ActivitySummary.namedLabels` of them and then how many more: the
    /// tooltip's text, the details notification's body and waybar's tooltip.
    public static func summaryLines(_ activities: [ActivityStatus]) -> [String] {
        let named = activities.prefix(ActivitySummary.namedLabels).map(\.summaryLine)
        let rest = activities.count - named.count
        return rest > 0 ? named + [ActivitySummary.andMore(rest)] : named
    }
}
