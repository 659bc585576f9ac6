// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The command line of a program that takes only options (`--flag`, `--option value`, `--option=value`), parsed and
/// explained without swift-argument-parser, which the `netactivity` command uses: ArgumentParser links
/// FoundationEssentials and reads a command through reflection, and that alone cost a program that runs all day
/// 3.6 MB of resident memory (docs/performance.md). The daemon's and the tray's options are few and fixed.
public struct CommandLineOptions<Options>: Sendable {
    public struct Option: Sendable {
        enum Kind: Sendable {
            case flag(@Sendable (inout Options) -> Void)
            /// `set` returns false for a value it cannot use; the error then says what the option `takes`.
            case value(placeholder: String, takes: String, set: @Sendable (inout Options, String) -> Bool)
        }

        let name: String
        let kind: Kind
        let help: String

        /// `--name`, which sets what `set` sets.
        public static func flag(_ name: String, help: String, set: @escaping @Sendable (inout Options) -> Void) -> Option {
            Option(name: name, kind: .flag(set), help: help)
        }

        /// `--name VALUE` or `--name=VALUE`, read by `parse`, which returns nil for a value it cannot use (the error
        /// then says that the option `takes` what it does), and given to `set`.
        public static func value<Value>(
            _ name: String, _ placeholder: String, takes: String, help: String,
            parse: @escaping @Sendable (String) -> Value?, set: @escaping @Sendable (inout Options, Value) -> Void
        ) -> Option {
            Option(name: name, kind: .value(placeholder: placeholder, takes: takes) { options, text in
                guard let value = parse(text) else { return false }
                set(&options, value)
                return true
            }, help: help)
        }
    }

    /// What the command line asks for.
    public enum Request {
        case run(Options)
        case help
        case version
    }

    private let program: String
    private let options: [Option]

    public init(program: String, options: [Option]) {
        self.program = program
        self.options = options
    }

    /// Reads the options in any order onto `defaults`; a later one overrides an earlier one.
    public func parse(_ arguments: ArraySlice<String>, onto defaults: Options) throws(UsageError) -> Request {
        var parsed = defaults
        var remaining = arguments
        while let argument = remaining.popFirst() {
            if argument == "-h" || argument == "--help" { return .help }
            if argument == "--version" { return .version }
            let (name, inlineValue) = split(argument)
            guard let option = option(named: name) else {
                throw UsageError("unknown option '\(argument)'")
            }
            switch option.kind {
            case .flag(let set):
                guard inlineValue == nil else { throw UsageError("\(name) takes no value") }
                set(&parsed)
            case .value(let placeholder, let takes, let set):
                guard let value = inlineValue ?? remaining.popFirst() else {
                    throw UsageError("\(name) needs a value: \(name) \(placeholder)")
                }
                guard set(&parsed, value) else { throw UsageError("\(name) takes \(takes), not '\(value)'") }
            }
        }
        return .run(parsed)
    }

    /// The options the program's arguments ask for, checked by `validate`; for `--help` and `--version` it prints
    /// them and exits 0, and for a mistake it prints one error and the usage line and exits 64 (`EX_USAGE`).
    public func parseOrExit(
        onto defaults: Options, summary: String, description: String, version: String,
        validate: (Options) throws(UsageError) -> Void = { _ in }
    ) -> Options {
        do throws(UsageError) {
            switch try parse(CommandLine.arguments.dropFirst(), onto: defaults) {
            case .run(let options):
                try validate(options)
                return options
            case .help:
                print(help(summary: summary, description: description), terminator: "")
                exit(0)
            case .version:
                print(version)
                exit(0)
            }
        } catch {
            var message = "\(program): \(error.message)\nUsage: \(program) [options]; see \(program) --help\n"
            message.withUTF8 { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
            exit(64)
        }
    }

    /// `--help`'s text: the summary, the description (already wrapped), the usage line and a row per option.
    public func help(summary: String, description: String) -> String {
        let rows = options.map { option -> (String, String) in
            switch option.kind {
            case .flag: (option.name, option.help)
            case .value(let placeholder, _, _): ("\(option.name) \(placeholder)", option.help)
            }
        } + [("--version", "Show the version and exit."), ("-h, --help", "Show this help and exit.")]
        let width = rows.map(\.0.count).max() ?? 0
        return """
            \(program): \(summary)

            \(description)

            Usage: \(program) [options]

            Options:

            """
            + rows.map { "  \($0.0.padding(to: width))  \($0.1)" }.joined(separator: "\n") + "\n"
    }

    private func option(named name: String) -> Option? {
        // A loop over the array's indices: `first(where:)` runs unspecialized in this generic type, and looked up
        // `Sequence`'s associated types at run time, a fiftieth of the daemon's start-up.
        for index in options.indices where options[index].name == name {
            return options[index]
        }
        return nil
    }

    private func split(_ argument: String) -> (name: String, value: String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }
}

/// A command line the program cannot use.
public struct UsageError: Error {
    public let message: String
    public init(_ message: String) { self.message = message }
}

extension String {
    fileprivate func padding(to width: Int) -> String {
        self + String(repeating: " ", count: max(0, width - count))
    }
}
