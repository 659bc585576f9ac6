// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import DesktopIndicator
import Localization
import NetworkActivityClient
import ProgramSupport

struct PlanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "Keep a network to a data plan: a cap on what the machine moves on it each period.",
        discussion: """
            NETWORK is the network as `usage` names it: NetworkManager's connection (Phone hotspot), else the \
            interface (eth0). The cap counts both ways, every user's apps together; at the cap the system \
            service's kernel programs drop what would cross the network until the period resets, at midnight \
            every day, on the week's day --starts (1 Monday to 7 Sunday, or its name) or on the month's day \
            --starts (1 to 31; a shorter month resets on its last). A SIZE is decimal, as the command prints it \
            (500MB, 10GB), a plain number bytes. --resume lets the network's apps go on past the cap until the \
            period resets. The plan is the machine's: root sets it (with --system), \
            or a user whom polkit authorizes (an administrator's password, by default); everyone may read it \
            with `netactivity plans`.
            """)

    @OptionGroup var busOptions: BusOptions

    @Argument(help: ArgumentHelp("The network, as `usage` names it.", valueName: "network"))
    var network: String

    @Option(help: ArgumentHelp("At most this much, both ways, each period.", valueName: "size"))
    var cap: String?

    @Option(help: ArgumentHelp("day, week or month.", valueName: "period"))
    var period: String?

    @Option(help: ArgumentHelp("The day a period begins: a week's 1 to 7 (or monday to sunday), a month's 1 to 31.",
                               valueName: "day"))
    var starts: String?

    @Option(help: ArgumentHelp("Tell at this percent of the cap (80 if not given).", valueName: "percent"))
    var warn: UInt32?

    @Flag(help: "Remove the network's plan.")
    var none = false

    @Flag(help: "Let the network's apps go on past its cap until the period ends.")
    var resume = false

    static let weekdays = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]

    /// The day a period begins, as a number: a weekday's name (or its first three letters) is its number.
    static func day(_ text: String) -> UInt32? {
        if let number = UInt32(text) { return number }
        let lowered = text.lowercased()
        return weekdays.firstIndex { $0 == lowered || ($0.hasPrefix(lowered) && lowered.count >= 3) }
            .map { UInt32($0 + 1) }
    }

    func validate() throws {
        let settings = cap != nil || period != nil || starts != nil || warn != nil
        if none, settings || resume { throw ValidationError(localized("--none takes no other option.")) }
        if resume, settings { throw ValidationError(localized("--resume takes no other option.")) }
        if !none, !resume, cap == nil || period == nil {
            throw ValidationError(localized("Give --cap and --period, --resume or --none."))
        }
        if let cap, ByteQuantity.size(cap) == nil {
            throw ValidationError(localized("A size is a number of bytes, such as 500MB or 10GB: %s", cap))
        }
        if let starts, Self.day(starts) == nil {
            throw ValidationError(localized("A day is a number, or a weekday's name: %s", starts))
        }
    }

    func run() async throws {
        try await reportingFailure { () async throws(NetworkActivityError) in
            let client = try busOptions.connect()
            if none {
                try await client.removePlan(of: network)
            } else if resume {
                try await client.resumePlan(of: network)
            } else {
                try await client.setPlan(for: network, cap: cap.flatMap(ByteQuantity.size) ?? 0, period: period ?? "",
                                         starts: starts.flatMap(Self.day), warn: warn)
            }
        }
    }
}

struct PlansCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plans",
        abstract: "Show the machine's data plans: what each period used, what is left, when it resets.",
        discussion: """
            One line per network: used, its cap, left, and the day the next period begins. --json prints one \
            array of the plans as the service's GetPlans gives them: network, cap, period, starts, warn, used \
            and left in bytes, since and resets as YYYY-MM-DD.
            """)

    @OptionGroup var busOptions: BusOptions

    @Flag(help: "Print one JSON array instead of a table.")
    var json = false

    func run() async throws {
        let plans = try await reportingFailure { () async throws(NetworkActivityError) in
            try await busOptions.connect().plans()
        }
        print(json ? JSONValue.array(plans.map(\.record.json)).text : Self.table(plans))
    }

    static func table(_ plans: [NetworkDataPlan]) -> String {
        guard !plans.isEmpty else { return localized("no data plans") }
        // TRANSLATORS: the headings of `netactivity plans`' columns, in capitals as command-line tables write them.
        let headings = [localized("NETWORK"), localized("USED"), localized("CAP"), localized("LEFT"),
                        localized("RESETS")]
        let rows = plans.map { plan in
            [plan.network, ByteAmount.text(plan.used), ByteAmount.text(plan.cap), ByteAmount.text(plan.left),
             plan.resets]
        }
        return TextTable.lines([headings] + rows).joined(separator: "\n")
    }
}
