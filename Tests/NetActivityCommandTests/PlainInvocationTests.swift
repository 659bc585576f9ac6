import ArgumentParser
import NetworkActivityClient
import Testing
@testable import NetActivityCommand

/// `netactivity` reads the plain forms of `begin`, `end`, `run` and `watch` itself, and leaves everything else to
/// swift-argument-parser: each form it reads must come out as swift-argument-parser reads it.
@Suite struct PlainInvocationTests {
    @Test(arguments: [
        ["begin", "--timeout", "600"],
        ["begin", "--timeout=600", "--label", "backup"],
        ["begin", "--label", "nightly sync", "--timeout", "1", "--system"],
        ["begin", "--address", "unix:path=/tmp/bus", "--timeout", "+5"],
        ["begin", "--label=a=b", "--timeout", "86400"],
        ["end", "42"],
        ["end", "--system", "7"],
        ["end", "7", "--address=unix:path=/run/user/1000/bus"],
        ["run", "--", "curl", "-O", "https://example.org/file"],
        ["run", "--label", "fetch", "--strict", "--notify", "--", "true"],
        ["run", "--system", "--", "sh", "-c", "exit 3"],
        ["run", "--", "--help"],
        ["watch"],
        ["watch", "--format", "waybar", "--show-idle"],
        ["watch", "--format=json", "--system"],
        ["watch", "--show-idle", "--address", "unix:path=/tmp/bus", "--format", "i3blocks"],
    ])
    func aPlainFormIsReadAsSwiftArgumentParserReadsIt(arguments: [String]) throws {
        let plain = try #require(PlainInvocation.action(for: arguments[...]))
        #expect(plain == (try readBySwiftArgumentParser(arguments)))
    }

    @Test(arguments: [
        [], ["--help"], ["--version"], ["help", "begin"], ["status"], ["reset"],
        ["begin"], ["begin", "--help"], ["begin", "-h", "--timeout", "5"], ["begin", "--label", "x"],
        ["begin", "--timeout", "-1"], ["begin", "--timeout", "ten"], ["begin", "--timeout", "4294967296"],
        ["begin", "--timeout", "5", "--timeout", "6"], ["begin", "--timeout", "5", "extra"],
        ["begin", "--timeout", "5", "--label", "--system"], ["begin", "--timeout", "5", "--label="],
        ["begin", "--timeout", "5", "--system", "--address", "unix:path=/x"], ["begin", "--timeout", "5", "--"],
        ["begin", "--timeout", "5", "--strict"],
        ["end"], ["end", "1", "2"], ["end", "abc"], ["end", "-1"], ["end", "4294967296"], ["end", "--", "1"],
        ["end", "1", "--system=yes"],
        ["run"], ["run", "--"], ["run", "true"], ["run", "--label", "--", "x"], ["run", "--strict=yes", "--", "x"],
        ["run", "-h", "--", "x"], ["run", "--timeout", "5", "--", "x"], ["run", "x", "--", "y"],
        ["watch", "--help"], ["watch", "--format"], ["watch", "--format", "xml"], ["watch", "--format", "json", "x"],
        ["watch", "--show-idle=yes"], ["watch", "--label", "x"], ["watch", "--", "x"], ["watch", "--format", "plain",
        "--format", "json"], ["watch", "--system", "--address", "unix:path=/x"],
    ])
    func everythingElseIsLeftToSwiftArgumentParser(arguments: [String]) {
        #expect(PlainInvocation.action(for: arguments[...]) == nil)
    }
}

private func readBySwiftArgumentParser(_ arguments: [String]) throws -> ActivityAction {
    switch try NetActivityCommand.parseAsRoot(arguments) {
    case let command as BeginCommand: .begin(command.action)
    case let command as EndCommand: .end(command.action)
    case let command as RunCommand: .run(command.action)
    case let command as WatchCommand: .watch(command.action)
    case let other: throw ReadAsAnotherCommand(command: "\(type(of: other))")
    }
}

private struct ReadAsAnotherCommand: Error {
    let command: String
}
