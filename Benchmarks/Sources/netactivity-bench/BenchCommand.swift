// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import ProgramSupport

@main
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "netactivity-bench",
        abstract: "Measures and tests netactivityd on a private bus of its own: speed, memory, load, faults, fuzzing.",
        version: PackageVersion.current,
        subcommands: [MeasureCommand.self, StressCommand.self, MemoryCommand.self, FuzzCommand.self,
                      StressClientCommand.self, HoldCommand.self,
                      ClientsCommand.self, SourcesCommand.self, TrafficCommand.self, UsageCommand.self],
        defaultSubcommand: MeasureCommand.self)
}
