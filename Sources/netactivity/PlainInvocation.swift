import ArgumentParser
import NetworkActivityClient

/// Reads the plain forms of the commands a script runs around each download, without swift-argument-parser:
///
///     begin --timeout SECONDS [--label LABEL]
///     end ID
///     run [--label LABEL] [--strict] [--notify] -- COMMAND [ARGUMENT...]
///
/// each with `--system` or `--address ADDRESS`, options as `--name value` or `--name=value`. swift-argument-parser
/// reads a command by reflecting on its types, which costs more than all the rest such a command does (more than
/// half its instructions; docs/performance.md). Anything else, help, version and every mistake included, is
/// declined and left to swift-argument-parser, and a test checks that both read every plain form alike.
enum PlainInvocation {
    static func action(for arguments: ArraySlice<String>) -> ActivityAction? {
        var words = arguments
        guard let subcommand = words.popFirst(), let accepted = options[subcommand] else { return nil }
        var given: [String: String] = [:]
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
            guard let takesValue = accepted[name], given[name] == nil else { return nil }
            if takesValue {
                // A value that looks like an option, or is empty, is left to swift-argument-parser's rules.
                guard let value = inlineValue ?? words.popFirst(), !value.isEmpty, !value.hasPrefix("-") else {
                    return nil
                }
                given[name] = value
            } else {
                guard inlineValue == nil else { return nil }
                given[name] = ""
            }
        }
        if given["system"] != nil, given["address"] != nil { return nil }
        let bus: NetworkActivityClient.Bus = given["address"].map { .address($0) }
            ?? (given["system"] != nil ? .system : .session)

        switch subcommand {
        case "begin":
            guard operands.isEmpty, command == nil, let timeout = given["timeout"].flatMap({ UInt32(argument: $0) })
            else { return nil }
            return .begin(BeginAction(bus: bus, label: given["label"] ?? "", timeout: timeout))
        case "end":
            guard operands.count == 1, command == nil, let id = ActivityID(argument: operands[0]) else { return nil }
            return .end(EndAction(bus: bus, id: id))
        default:
            guard operands.isEmpty, let command, !command.isEmpty else { return nil }
            return .run(RunAction(bus: bus, label: given["label"], strict: given["strict"] != nil,
                                  notify: given["notify"] != nil, command: command))
        }
    }

    /// Each plain subcommand's options, and whether each takes a value.
    private static let busOptions = ["system": false, "address": true]
    private static let options: [String: [String: Bool]] = [
        "begin": busOptions.merging(["timeout": true, "label": true]) { $1 },
        "end": busOptions,
        "run": busOptions.merging(["label": true, "strict": false, "notify": false]) { $1 },
    ]

    /// `--name=value` into `("name", "value")`, `--name` into `("name", nil)`.
    private static func split(_ word: String) -> (name: String, value: String?) {
        let body = word.dropFirst(2)
        guard let equals = body.firstIndex(of: "=") else { return (String(body), nil) }
        return (String(body[..<equals]), String(body[body.index(after: equals)...]))
    }
}
