import DBusKit
import Foundation
import NetworkActivityInterface
import ServiceHarness
import Testing

extension Integration {
    /// `netactivity shell-init` in real interactive bash, zsh and fish, each on a terminal of its own (`script`
    /// gives it one), set up as the README says and typed into as a person would.
    @Suite("The shell hook")
    struct ShellHookTests {
        enum Shell: String, CaseIterable, Sendable {
            case bash, zsh, fish

            /// The shell, interactive, without the machine's or the user's rc files.
            var command: String {
                switch self {
                case .bash: "bash --norc --noprofile -i"
                case .zsh: "zsh -f -i"
                case .fish: "fish --no-config -i"
                }
            }

            /// The README's line for the rc file.
            var setUp: String {
                switch self {
                case .bash, .zsh: #"eval "$(netactivity shell-init \#(rawValue))""#
                case .fish: "netactivity shell-init fish | source"
                }
            }

            var exitStatus: String { self == .fish ? "$status" : "$?" }

            /// Appends an entry to the list of network commands, as the README says. zsh would read
            /// `$NETACTIVITY_SHELL_COMMANDS:f…` as modifiers: the braces are needed.
            func extendList(with entry: String) -> String {
                self == .fish ? #"set -g NETACTIVITY_SHELL_COMMANDS "$NETACTIVITY_SHELL_COMMANDS:\#(entry)""#
                    : #"NETACTIVITY_SHELL_COMMANDS="${NETACTIVITY_SHELL_COMMANDS}:\#(entry)""#
            }
        }

        /// A folder put first on the shell's PATH: `netactivity`, which notes each run in `calls` before it runs
        /// the real one, and commands that stand for network work (`curl`, `fetch-mail`): each waits until the test
        /// creates `release`, then exits with status 7.
        final class StandIns {
            let folder: URL
            var calls: [String] {
                ((try? String(contentsOf: folder.appendingPathComponent("calls"), encoding: .utf8)) ?? "")
                    .split(separator: "\n").map(String.init)
            }

            init() throws {
                folder = try temporaryDirectory("shell")
                let bin = folder.appendingPathComponent("bin")
                try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
                try write(bin.appendingPathComponent("netactivity"), """
                    #!/bin/sh
                    echo "$*" >> '\(folder.path)/calls'
                    exec '\(Paths.cli.path)' "$@"
                    """)
                let work = """
                    #!/bin/sh
                    deadline=$(($(date +%s) + 20))
                    while [ ! -e '\(folder.path)/release' ] && [ "$(date +%s)" -lt "$deadline" ]; do sleep 0.02; done
                    exit 7
                    """
                try write(bin.appendingPathComponent("curl"), work)
                try write(bin.appendingPathComponent("fetch-mail"), work)
            }

            func release() throws { _ = try touch(folder.appendingPathComponent("release")) }
            func hold() throws { try FileManager.default.removeItem(at: folder.appendingPathComponent("release")) }

            private func write(_ url: URL, _ text: String) throws {
                try (text + "\n").write(to: url, atomically: true, encoding: .utf8)
                try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
            }

            deinit { try? FileManager.default.removeItem(at: folder) }
        }

        @Test(arguments: Shell.allCases)
        func networkCommandsShowWhileTheyRunOthersCostNothingAndAMissingServiceIsSilent(shell: Shell) throws {
            let bus = try PrivateBus()
            let service = try DaemonProcess(bus: bus)
            let listener = try SignalListener(bus)
            let standIns = try StandIns()
            let terminal = try BackgroundProcess(
                URL(fileURLWithPath: "/usr/bin/script"), ["-qfec", shell.command, "/dev/null"], bus: bus,
                path: "\(standIns.folder.path)/bin:/usr/bin:/bin",
                environment: ["TERM": "dumb", "HOME": standIns.folder.path, "XDG_CONFIG_HOME": standIns.folder.path,
                              "XDG_DATA_HOME": standIns.folder.path],
                takesInput: true)
            defer {
                try? standIns.release()
                terminal.send(SIGKILL)
            }
            terminal.write(shell.setUp)

            // A command on the default list shows while it runs, labelled with its line; its status is its own.
            terminal.write("curl https://example.invalid/file; echo \"status=\(shell.exitStatus)\"")
            let curl = try ClientExampleTests.awaitRecord(listener) { $0.label == "curl https://example.invalid/file" }
            try standIns.release()
            _ = try terminal.awaitLine("curl's status") { $0.contains("status=7") }
            try ClientExampleTests.awaitEnd(of: curl.id, listener)

            // Commands that are not network work start no process of ours.
            let callsBefore = standIns.calls
            terminal.write("true; ls > /dev/null; git status > /dev/null 2>&1; echo not-network-\("done")")
            _ = try terminal.awaitLine("the other commands' end") { $0.contains("not-network-done") }
            #expect(standIns.calls == callsBefore, "\(standIns.calls)")
            #expect(callsBefore.filter { $0.hasPrefix("begin ") }
                == ["begin --label curl https://example.invalid/file --timeout 3600"])

            // The list is the user's to extend, and an entry may name a command's first argument.
            try standIns.hold()
            terminal.write(shell.extendList(with: "fetch-mail sync"))
            terminal.write("fetch-mail --quiet sync work; fetch-mail list")
            let fetch = try ClientExampleTests.awaitRecord(listener) { $0.label.hasPrefix("fetch-mail --quiet sync") }
            try standIns.release()
            try ClientExampleTests.awaitEnd(of: fetch.id, listener)

            // Without the service: the command runs, its status unchanged, and the hook says nothing.
            service.send(SIGTERM)
            #expect(service.exitStatus() != nil)
            let linesBefore = terminal.lines.count
            terminal.write("curl https://example.invalid/other; echo \"status=\(shell.exitStatus) after\"")
            _ = try terminal.awaitLine("curl's status without the service") { $0.contains("status=7 after") }
            let printed = terminal.lines.dropFirst(linesBefore).joined(separator: "\n")
            #expect(!printed.contains("netactivity:") && !printed.contains("Error"), "\(printed)")
            #expect(standIns.calls.last?.hasPrefix("begin --label curl https://example.invalid/other") == true)
        }
    }
}
