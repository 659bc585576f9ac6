#if DEBUG  // A fuzz target reads internals (@testable), which a debug build alone compiles for: ReleaseBuild.swift.
import DBusKit
@testable import DesktopIndicator
import FuzzingSupport
@testable import NetActivityCommand
@testable import NetworkActivity
@testable import NetworkActivityService
import ProgramSupport
import TestSupport

/// Every parser of text that comes from outside (docs/reliability.md, "Fuzzing"). The first byte chooses one,
/// the rest is its text:
///
///     0 a label               accepted exactly when the rule (at most 256 bytes, no control character) holds
///     1 a D-Bus name          of the kind the next byte picks: accepted exactly when the specification's rules hold
///     2 a state file          read without a crash, every activity in it within the rules; what it holds,
///                             taken over and written again, reads back the same. Odd second byte: the rest is
///                             records, each a length byte and a payload, framed with their checksums
///     3 netactivityd's flags  arguments split at NUL: read, or refused with a usage error; what is read is in range
///                             and reads back the same from the flags that say it
///     4 netactivity's         arguments split at NUL: a plain form the command reads itself is read the same by
///       command line          swift-argument-parser
///     5 /proc/PID/cgroup      a desktop file id found in it is a printable name of one path element
///     6 a desktop file        a name found in it is one line, not empty
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzedBytes(data, count: size)
    switch input.byte() % 7 {
    case 0: checkLabel(String(decoding: input.remaining, as: UTF8.self))
    case 1: checkName(kind: input.byte(), String(decoding: input.remaining, as: UTF8.self))
    case 2: checkStateFile(&input)
    case 3: checkDaemonArguments(arguments(input.remaining))
    case 4: checkCommandLine(arguments(input.remaining))
    case 5: checkCgroups(String(decoding: input.remaining, as: UTF8.self))
    default: checkDesktopFile(String(decoding: input.remaining, as: UTF8.self))
    }
    return 0
}

@main
enum OutsideTextFuzzing {
    static func main() {
        FuzzTarget.main(testOneInput: testOneInput, seeds: outsideTextSeeds)
    }
}

private func arguments(_ bytes: ArraySlice<UInt8>) -> [String] {
    bytes.split(separator: 0, omittingEmptySubsequences: false).prefix(16).map { String(decoding: $0, as: UTF8.self) }
}

private func checkLabel(_ text: String) {
    let allowed = text.utf8.count <= 256
        && !text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
    fuzzCheck(((try? ActivityLabel(text)) != nil) == allowed, "the label \(text.debugDescription) is \(allowed ? "refused" : "accepted")")
}

private func checkName(kind: UInt8, _ text: String) {
    let (name, accepted, allowed): (String, Bool, Bool)
    switch kind % 5 {
    case 0: (name, accepted, allowed) = ("object path", (try? ObjectPath(text)) != nil, NameRules.isObjectPath(text))
    case 1: (name, accepted, allowed) = ("bus name", (try? BusName(text)) != nil, NameRules.isBusName(text))
    case 2: (name, accepted, allowed) = ("interface", (try? InterfaceName(text)) != nil, NameRules.isInterface(text))
    case 3: (name, accepted, allowed) = ("member", (try? MemberName(text)) != nil, NameRules.isMember(text))
    default: (name, accepted, allowed) = ("error name", (try? ErrorName(text)) != nil, NameRules.isInterface(text))
    }
    fuzzCheck(accepted == allowed, "the \(name) \(text.debugDescription) is \(allowed ? "refused" : "accepted")")
}

private func checkStateFile(_ input: inout FuzzedBytes) {
    var bytes: [UInt8]
    if input.byte() & 1 == 1 {
        var journal = StateFileFraming()
        while !input.isAtEnd { journal.append(payload: input.take(Int(input.byte()))) }
        bytes = journal.bytes
    } else {
        bytes = Array(input.remaining)
    }
    let limit = 16
    let historyLimit = 4
    let state = SavedState(reading: bytes, maximumActivities: limit, historyLimit: historyLimit)
    let entries = state.history.entries(ofUser: nil)
    fuzzCheck(entries.count <= historyLimit * ActivityHistory.maximumUsers, "\(entries.count) entries read")
    for entry in entries {
        fuzzCheck((try? ActivityLabel(entry.label.text)) != nil, "an entry's label the rules refuse")
        fuzzCheck(entry.owner.utf8.count <= StateFileFormat.maximumNameBytes, "an entry's owner of \(entry.owner.utf8.count) bytes")
        fuzzCheck(entry.progress.percent.map { $0 <= 100 } ?? true, "an entry's percent over 100")
    }
    fuzzCheck(state.activities.count <= limit, "\(state.activities.count) activities read past the limit")
    let counts = state.activities.map { (state.idCipher ?? .sequential).count(ofID: $0.id.rawValue) }
    fuzzCheck(counts == counts.sorted(), "activities out of order")
    for activity in state.activities {
        fuzzCheck(activity.id.rawValue != 0
                  && (state.idCipher ?? .sequential).count(ofID: activity.id.rawValue) <= state.highestID,
                  "activity id \(activity.id)")
        fuzzCheck((try? ActivityLabel(activity.label.text)) != nil, "a label the rules refuse")
        fuzzCheck((try? BusName(activity.owner)) != nil && activity.owner.hasPrefix(":"), "the owner \(activity.owner.debugDescription)")
    }
    // Taken over by a service whose callers are all still there, then written afresh: the same activities.
    let clock = TestClock()
    var coordinator = ActivityCoordinator(limits: ActivityLimits(total: limit), delays: .none, clock: clock)
    _ = coordinator.restore(state, isOnBus: { _ in true })
    var rewritten = StateJournal()
    rewritten.appendFile(of: coordinator.tracker, history: state.history, busID: state.busID ?? "none")
    let again = SavedState(reading: rewritten.bytes, maximumActivities: limit, historyLimit: historyLimit)
    fuzzCheck(again.history.entries(ofUser: nil) == entries, "the history written again reads back otherwise")
    fuzzCheck(again.problem == nil, "the file written again has a problem: \(again.problem ?? "")")
    let taken = Set(coordinator.tracker.all.map(\.id))
    fuzzCheck(again.activities.map(\.id) == state.activities.map(\.id).filter(taken.contains), "the ids written again")
    for (original, reread) in zip(state.activities.filter { taken.contains($0.id) }, again.activities) {
        fuzzCheck(original.owner == reread.owner && original.label == reread.label && original.lease == reread.lease
                  && original.startedAt == reread.startedAt && original.cancelReceiver == reread.cancelReceiver
                  && original.progress.percent == reread.progress.percent,
                  "activity \(original.id) reads back as \(reread), not \(original)")
    }
}

private func checkDaemonArguments(_ arguments: [String]) {
    guard let request = try? DaemonOptions.commandLine.parse(arguments[...], onto: DaemonOptions()),
          case .run(let options) = request else { return }
    for delay in [options.showDelay, options.hideDelay, options.minVisible] {
        fuzzCheck((0...86_400).contains(delay), "a delay of \(delay) s")
    }
    fuzzCheck(options.maxPerCaller >= 1 && options.maxPerUser >= 1 && options.maxTotal >= 1, "a limit below 1")
    fuzzCheck((1...86_400).contains(options.maxTimeout), "a maximum timeout of \(options.maxTimeout)")
    fuzzCheck((0...ActivityHistory.maximumLimit).contains(options.history), "a history of \(options.history)")
    // The flags that say what was read read back the same.
    var canonical = ["--show-delay", "\(options.showDelay)", "--hide-delay", "\(options.hideDelay)",
                     "--min-visible", "\(options.minVisible)", "--max-per-caller", "\(options.maxPerCaller)",
                     "--max-per-user", "\(options.maxPerUser)", "--max-total", "\(options.maxTotal)",
                     "--max-timeout", "\(options.maxTimeout)", "--log-level", options.logLevel.rawValue]
    if options.system { canonical.append("--system") }
    if options.noSystem { canonical.append("--no-system") }
    if options.replace { canonical.append("--replace") }
    for source in options.noSources { canonical += ["--no-source", source.rawValue] }
    canonical.append("--launcher-apps=\(options.launcherApps.joined(separator: ","))")
    if let address = options.address { canonical.append("--address=\(address)") }
    if let directory = options.stateDirectory { canonical.append("--state-dir=\(directory)") }
    guard case .run(let again)? = try? DaemonOptions.commandLine.parse(canonical[...], onto: DaemonOptions()) else {
        fuzzCheck(false, "\(canonical) is refused, read from \(arguments)")
        return
    }
    fuzzCheck("\(again)" == "\(options)", "\(arguments) reads as \(options), its flags \(canonical) as \(again)")
}

private func checkCommandLine(_ arguments: [String]) {
    guard let plain = PlainInvocation.action(for: arguments[...]) else { return }
    let parsed: ActivityAction? = switch try? NetActivityCommand.parseAsRoot(arguments) {
    case let command as BeginCommand: .begin(command.action)
    case let command as EndCommand: .end(command.action)
    case let command as RunCommand: .run(command.action)
    case let command as WatchCommand: .watch(command.action)
    default: nil
    }
    fuzzCheck(parsed == plain, "\(arguments) reads as \(plain) by the command, as \(parsed.map { "\($0)" } ?? "an error") by swift-argument-parser")
}

private func checkCgroups(_ text: String) {
    guard let id = CallerApplication.desktopID(inCgroups: text) else { return }
    fuzzCheck(CallerApplication.isPrintable(id) && !id.contains("/"), "the desktop file id \(id.debugDescription)")
}

private func checkDesktopFile(_ text: String) {
    guard let application = DesktopApplications.parse(text, languages: ["de_DE", "de"]) else { return }
    fuzzCheck(!application.name.isEmpty && !application.name.contains(where: \.isNewline),
              "the name \(application.name.debugDescription)")
}
#endif
