import DBusKit
import Foundation
import ServiceHarness
import Testing

extension Integration {
    /// netactivity's completions as `packaging/install.sh` installs them, in real bash, fish and zsh: `end` completes
    /// the ids of the timed activities, which are the ones it can end, and never starts the service to find them.
    @Suite("Shell completion")
    struct CompletionTests {
        let installation: Installation
        let bus: PrivateBus

        init() throws {
            installation = try Installation()
            // The installed activation file: a completion that let the bus start the service would be seen.
            bus = try PrivateBus(services: .folder(installation.path("share/dbus-1/services")))
        }

        /// One activity of a connection, which `end` cannot end, and two timed ones, which it can.
        private func beginActivities() throws -> (client: RawClient, timed: [String]) {
            let client = try RawClient(bus)
            _ = try client.begin("bound")
            // Two leases whose ids begin with different digits, so that a shell lists both rather than completing
            // their common beginning (ids tell nothing of their order); the others end again.
            var timed: [String] = []
            while timed.count < 2 {
                let id = try netactivity(bus, "begin", "--timeout", "600").stdout.trimmingCharacters(in: .newlines)
                if let first = timed.first, first.first == id.first {
                    #expect(try netactivity(bus, "end", id).succeeded)
                } else {
                    timed.append(id)
                }
            }
            return (client, timed)
        }

        private var environment: [String: String] {
            ["PATH": "\(installation.path("bin").path):/usr/bin:/bin", "HOME": bus.directory.path]
        }

        private func bash(_ words: [String]) throws -> [String] {
            let script = """
                source /usr/share/bash-completion/bash_completion
                source '\(installation.path("share/bash-completion/completions/netactivity").path)'
                COMP_WORDS=(\(words.map { "'\($0)'" }.joined(separator: " "))); COMP_CWORD=\(words.count - 1)
                COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}
                _netactivity netactivity "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
                printf '%s\\n' "${COMPREPLY[@]}"
                """
            let result = try runTool("bash", ["-c", script], bus: bus, environment: environment)
            try #require(result.succeeded, "\(result)")
            return result.stdout.split(separator: "\n").map(String.init)
        }

        @Test func bashCompletesEndWithTheIdsOfTimedActivities() throws {
            let (client, timed) = try beginActivities()
            #expect(try bash(["netactivity", "end", ""]) == timed)
            #expect(try bash(["netactivity", "end", timed[1]]) == [timed[1]], "the typed prefix narrows the ids")
            #expect(try bash(["netactivity", "end", "--address", bus.address, ""]) == timed)
            #expect(try bash(["netactivity", "st"]) == ["status"], "subcommands complete too")
            #expect(try bash(["netactivity", "hi"]) == ["history"])
            #expect(Set(try bash(["netactivity", "history", "--"])).isSuperset(of: ["--json", "--limit", "--clear"]))
            _ = client
        }

        @Test func bashCompletesCancelWithTheIdsOfActivitiesThatCanBeStopped() throws {
            let (client, timed) = try beginActivities()
            let stoppable = try #require(UInt32(timed[1]))
            try client.setCancellable(stoppable)
            #expect(try bash(["netactivity", "cancel", ""]) == [timed[1]])
        }

        @Test func withoutARunningServiceNothingIsOfferedAndNothingStarted() throws {
            #expect(try bash(["netactivity", "end", ""]) == [])
            let client = try RawClient(bus)
            #expect(throws: (any Error).self, "the completion started the service") {
                try client.connection.nameOwner(of: busName)
            }
        }

        @Test func fishCompletesEndWithTheIdsOfTimedActivities() throws {
            let (client, timed) = try beginActivities()
            let script = installation.path("share/fish/vendor_completions.d/netactivity.fish").path
            let result = try runTool("fish", ["--no-config", "-c",
                                              "source '\(script)'; complete -C 'netactivity end '"],
                                     bus: bus, environment: environment)
            #expect(result.succeeded, "\(result)")
            #expect(result.stdout.split(separator: "\n").map(String.init) == timed, "\(result)")
            _ = client
        }

        @Test func zshListsTheIdsOfTimedActivities() throws {
            let (client, timed) = try beginActivities()
            let driver = Paths.repository.appendingPathComponent("Tests/Completion/zsh-complete.zsh").path
            let result = try runTool("zsh", ["-f", driver, installation.path("share/zsh/site-functions").path,
                                             "netactivity end "], bus: bus, environment: environment)
            #expect(result.succeeded, "\(result)")
            let listed = result.stdout.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
            #expect(listed.contains(timed), "zsh's screen: \(result.stdout)")
            _ = client
        }
    }
}
