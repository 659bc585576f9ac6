// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import DesktopIndicator
import Localization
import NetworkActivityClient
import NetworkActivityInterface
import ProgramSupport

struct LimitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "limit",
        abstract: "Hold an app to a speed, on metered networks or everywhere, or let it past a used-up data plan.",
        discussion: """
            The system service's kernel programs keep every instance of the app to the rate: uploads paced, \
            downloads policed, on every interface but loopback, until `netactivity limit APP --none`. The rule \
            is kept across restarts. APP is the app id `status` shows (firefox-esr, org.gnome.Maps, \
            apt-daily.service). A RATE is decimal, as the command prints it (500kB/s, 2MB/s, 8Mbit/s), a plain \
            number bytes; 0 lifts that way's limit, and a way not given stays as it was. --over-plan allow lets \
            the app go on where a network's data plan is used up, when every other app stops; --over-plan stop \
            takes that back. --metered pause stops the app on a metered network (NetworkManager's Metered yes or \
            guess-yes), --metered RATE holds it to that rate both ways there, --metered allow lets it go on there \
            even while your data saver is on (`netactivity saver on`), and --metered none leaves it to the saver. \
            Your rules hold your own apps; root's hold the machine's services (with --system).
            """)

    @OptionGroup var busOptions: BusOptions

    @Argument(help: ArgumentHelp("The app id, as `status` shows it.", valueName: "app"))
    var application: String

    @Option(help: ArgumentHelp("At most this much received a second.", valueName: "rate"))
    var down: String?

    @Option(help: ArgumentHelp("At most this much sent a second.", valueName: "rate"))
    var up: String?

    @Option(name: .customLong("over-plan"),
            help: ArgumentHelp("Whether the app goes on past a used-up data plan.", valueName: "allow|stop"))
    var overPlan: String?

    @Option(help: ArgumentHelp("What the app does on a metered network.", valueName: "pause|rate|allow|none"))
    var metered: String?

    @Flag(help: "Remove the app's limit.")
    var none = false

    func validate() throws {
        if none, down != nil || up != nil { throw ValidationError(localized("--none takes no rate.")) }
        if none, overPlan != nil || metered != nil {
            throw ValidationError(localized("--none takes no --over-plan or --metered."))
        }
        if !none, down == nil, up == nil, overPlan == nil, metered == nil {
            throw ValidationError(localized("Give --down, --up, --over-plan, --metered or --none."))
        }
        if let metered, meteredWord(metered) == nil {
            throw ValidationError(localized("--metered is pause, allow, none or a rate such as 100kB/s: %s", metered))
        }
        if let overPlan, overPlan != LimitRecord.OverPlan.allow, overPlan != LimitRecord.OverPlan.stop {
            throw ValidationError(localized("--over-plan is allow or stop: %s", overPlan))
        }
        for rate in [down, up].compactMap({ $0 }) where ByteQuantity.rate(rate) == nil {
            throw ValidationError(localized("A rate is a number of bytes a second, such as 500kB/s, 2MB/s or 8Mbit/s: %s", rate))
        }
    }

    func run() async throws {
        try await reportingFailure { () async throws(NetworkActivityError) in
            let client = try busOptions.connect()
            if none {
                try await client.removeLimit(of: application)
            } else {
                try await client.setLimit(of: application, down: down.flatMap(ByteQuantity.rate),
                                          up: up.flatMap(ByteQuantity.rate),
                                          exemptFromPlans: overPlan.map { $0 == LimitRecord.OverPlan.allow },
                                          onMetered: metered.flatMap(meteredWord))
            }
        }
    }

    /// `--metered`'s value as `SetLimit` takes it: a word as it is, a rate in bytes a second; nil when it is
    /// neither.
    private func meteredWord(_ value: String) -> String? {
        if [LimitRecord.Metered.pause, LimitRecord.Metered.allow, LimitRecord.Metered.none].contains(value) {
            return value
        }
        return ByteQuantity.rate(value).flatMap { $0 > 0 ? String($0) : nil }
    }
}

struct LimitsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "limits",
        abstract: "Show the speed limits you set.",
        discussion: """
            One line per app: its limit down and up, and whether it goes on past a used-up data plan. --json \
            prints one array of the rules as the service's GetLimits gives them: app, down and up in bytes a \
            second where the app is limited that way, and "over-plan": "allow" where it goes on past a plan. \
            Root sees the machine's services' with --system.
            """)

    @OptionGroup var busOptions: BusOptions

    @Flag(help: "Print one JSON array instead of a table.")
    var json = false

    func run() async throws {
        let limits = try await reportingFailure { () async throws(NetworkActivityError) in
            try await busOptions.connect().limits()
        }
        print(json ? JSONValue.array(limits.map(\.record.json)).text : Self.table(limits))
    }

    static func table(_ limits: [AppSpeedLimit]) -> String {
        guard !limits.isEmpty else { return localized("no limits") }
        // TRANSLATORS: the headings of `netactivity limits`' columns, in capitals as command-line tables write them.
        let headings = [localized("APP"), localized("DOWN"), localized("UP"), localized("OVER PLAN"),
                        localized("METERED")]
        let rows = limits.map { limit in
            [limit.application, limit.down.map(ByteAmount.rate) ?? "-", limit.up.map(ByteAmount.rate) ?? "-",
             // TRANSLATORS: in `netactivity limits`' OVER PLAN column: the app goes on past a used-up data plan.
             limit.exemptFromPlans ? localized("allowed") : "-", meteredCell(limit.onMetered)]
        }
        return TextTable.lines([headings] + rows).joined(separator: "\n")
    }

    /// What `netactivity limits`' METERED column says of a rule.
    static func meteredCell(_ word: String?) -> String {
        switch word {
        case nil: "-"
        // TRANSLATORS: in `netactivity limits`' METERED column: the app is paused on metered networks.
        case LimitRecord.Metered.pause?: localized("paused")
        // TRANSLATORS: in `netactivity limits`' METERED column: the app goes on there, even with the saver on.
        case LimitRecord.Metered.allow?: localized("allowed")
        case let rate?: UInt64(rate).map(ByteAmount.rate) ?? rate
        }
    }
}
