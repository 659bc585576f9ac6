// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import NetworkActivityClient

/// Reads the plain forms of the commands a script runs around each download, and of the one a panel keeps running,
/// without swift-argument-parser:
///
///     begin --timeout SECONDS [--label LABEL]
///     end ID
///     run [--label LABEL] [--strict] [--notify] [--no-cancel] [--kill-after SECONDS] -- COMMAND [ARGUMENT...]
///     watch [--format FORMAT] [--show-idle]
///
/// each with `--system` or `--address ADDRESS`, options as `--name value` or `--name=value`. swift-argument-parser
/// reads a command by reflecting on its types, which costs more than all the rest such a command does (more than
/// half its instructions, and 3 MB of memory that a panel's `watch` would keep all day, when that was measured).
/// Anything else, help, version and every mistake included, is declined and left to swift-argument-parser, and a
/// test checks that both read every plain form alike.
enum PlainInvocation {
    static func action(for arguments: ArraySlice<String>) -> ActivityAction? {
        var words = arguments
        guard let subcommand = words.popFirst(), ["begin", "end", "run", "watch"].contains(subcommand) else { return nil }
        var given = GivenOptions()
        var operands: [String] = []
        var command: [String]?
        while let word = words.popFirst() {
            if word == "--" {
                command = Array(words)
                break
            }
            guard word.hasPrefix("--") else {
                if word.hasPrefix("-") { return nil }
                operands.append(word)
                continue
            }
            let (name, inlineValue) = split(word)
            guard let takesValue = takesValue(name, in: subcommand), given.value(of: name) == nil else { return nil }
            if takesValue {
                // A value that looks like an option, or is empty, is left to swift-argument-parser's rules.
                guard let value = inlineValue ?? words.popFirst(), !value.isEmpty, !value.hasPrefix("-") else {
                    return nil
                }
                given.record(name, value)
            } else {
                guard inlineValue == nil else { return nil }
                given.record(name, "")
            }
        }
        if given.value(of: "system") != nil, given.value(of: "address") != nil { return nil }
        let bus: NetworkActivityClient.Bus = given.value(of: "address").map { .address($0) }
            ?? (given.value(of: "system") != nil ? .system : .session)

        switch subcommand {
        case "begin":
            guard operands.isEmpty, command == nil,
                  let timeout = given.value(of: "timeout").flatMap({ UInt32(argument: $0) })
            else { return nil }
            return .begin(BeginAction(bus: bus, label: given.value(of: "label") ?? "", timeout: timeout))
        case "end":
            guard operands.count == 1, command == nil, let id = ActivityID(argument: operands[0]) else { return nil }
            return .end(EndAction(bus: bus, id: id))
        case "watch":
            guard operands.isEmpty, command == nil else { return nil }
            var format = WatchFormat.plain
            if let name = given.value(of: "format") {
                guard let named = WatchFormat(rawValue: name) else { return nil }
                format = named
            }
            return .watch(WatchAction(bus: bus, format: format, showIdle: given.value(of: "show-idle") != nil))
        default:
            guard operands.isEmpty, let command, !command.isEmpty else { return nil }
            var killAfter = RunAction.defaultKillAfter
            if let given = given.value(of: "kill-after") {
                guard let seconds = UInt32(argument: given) else { return nil }
                killAfter = seconds
            }
            return .run(RunAction(bus: bus, label: given.value(of: "label"), strict: given.value(of: "strict") != nil,
                                  notify: given.value(of: "notify") != nil,
                                  cancellable: given.value(of: "no-cancel") == nil, killAfter: killAfter,
                                  command: command))
        }
    }

    /// Whether a plain subcommand's option takes a value; nil for an option it does not have. A `switch` rather
    /// than a table: a dictionary keyed by strings costs the runtime a search of every conformance in the program
    /// the first time, more than the rest of the reading.
    private static func takesValue(_ option: String, in subcommand: String) -> Bool? {
        switch (subcommand, option) {
        case (_, "system"): false
        case (_, "address"): true
        case ("begin", "timeout"), ("begin", "label"), ("run", "label"), ("run", "kill-after"): true
        case ("run", "strict"), ("run", "notify"), ("run", "no-cancel"), ("watch", "show-idle"): false
        case ("watch", "format"): true
        default: nil
        }
    }

    /// `--name=value` into `("name", "value")`, `--name` into `("name", nil)`.
    private static func split(_ word: String) -> (name: String, value: String?) {
        let body = word.dropFirst(2)
        guard let equals = body.firstIndex(of: "=") else { return (String(body), nil) }
        return (String(body[..<equals]), String(body[body.index(after: equals)...]))
    }
}

/// The options given so far, by name: a flag's value is empty.
private struct GivenOptions {
    private var names: [String] = []
    private var values: [String] = []

    func value(of name: String) -> String? {
        names.firstIndex(of: name).map { values[$0] }
    }

    mutating func record(_ name: String, _ value: String) {
        names.append(name)
        values.append(value)
    }
}
