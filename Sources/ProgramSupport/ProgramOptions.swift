// SPDX-License-Identifier: Apache-2.0
/// The options of a program that runs all day (the daemon, the tray): read from its command line, with a log at
/// the level they ask for.
public protocol ProgramOptions {
    init()
    static var commandLine: CommandLineOptions<Self> { get }
    /// What the program does, in one line of `--help`.
    static var summary: String { get }
    /// The rest of `--help`.
    static var description: String { get }
    var logLevel: Logger.Level { get }
    /// Refuses a combination of options that each are valid alone.
    static func validate(_ options: Self) throws(UsageError)
}

extension ProgramOptions {
    public static func validate(_ options: Self) throws(UsageError) {}

    /// Reads the program's command line, exiting for `--help`, `--version` and mistakes (`parseOrExit`), and logs
    /// to stderr at the level it asks for; returns the options and the program's logger.
    public static func startProgram(named name: String) -> (Self, Logger) {
        let options = commandLine.parseOrExit(onto: Self(), summary: summary, description: description,
                                              version: PackageVersion.current, validate: validate)
        StandardErrorLogging.bootstrap(level: options.logLevel)
        return (options, Logger(label: name))
    }
}
