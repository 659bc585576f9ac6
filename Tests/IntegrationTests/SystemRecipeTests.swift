import Foundation
import ServiceHarness
import Testing

extension Integration {
    /// The recipes for root's work ("Root's work in your panel", docs/installing.md), taken from the page itself. Each file is
    /// read by the program that would read it (`apt-config` for the APT hook, `systemd-analyze verify` for the
    /// drop-in, cron's fields for the cron line), and each command it yields runs through `sh -c`, as root, against
    /// a system-like bus with its netactivityd, while a session netactivityd follows that one. The recipes keep ids
    /// in `/run`: the commands run in a mount namespace whose `/run` is an empty one of their own.
    @Suite("docs/installing.md: root's work in the panel", .enabled(if: geteuid() == 0, "runs the recipes as root, in a namespace"))
    struct SystemRecipeTests {
        static let heading = "## Root's work in your panel"
        static let page = "docs/installing.md"

        let system: PrivateBus
        let session: PrivateBus
        let sessionDaemon: DaemonProcess
        let listener: SignalListener
        let user: RawClient
        let run: PrivateRunFolder

        init() throws {
            system = try systemLikeBus(including: [systemPolicy])
            session = try PrivateBus()
            sessionDaemon = try DaemonProcess(bus: session, environment: ["DBUS_SYSTEM_BUS_ADDRESS": system.address])
            listener = try SignalListener(session)
            user = try RawClient(session)
            run = try PrivateRunFolder(bus: system)
        }

        /// Runs one command of a recipe as APT, systemd and cron run it, with `netactivity` on `PATH`.
        func shell(_ command: String, path: String = "\(Paths.products.path):/usr/bin:/bin") throws -> ToolResult {
            try run.shell(command, bus: system, path: path)
        }

        /// Waits until the session's indicator shows exactly one activity, root's, labelled `label`.
        func awaitShown(_ label: String) throws {
            try listener.awaitVisibility(true)
            let listed = try user.list()
            #expect(listed.map(\.label) == [label])
            #expect(listed.allSatisfy { $0.owner.hasPrefix("system:") }, "\(listed)")
        }

        func awaitHidden() throws {
            try listener.awaitVisibility(false)
            #expect(try user.activeCount == 0)
        }

        @Test func theAPTHookShowsUpdatesAndPackageChangesEvenWhenTheyOverlap() throws {
            let systemDaemon = try DaemonProcess(bus: system, systemBus: true)
            let hooks = try aptHooks()

            for (pre, post, label) in [("APT::Update::Pre-Invoke", "APT::Update::Post-Invoke", "apt-update"),
                                       ("DPkg::Pre-Invoke", "DPkg::Post-Invoke", "dpkg")] {
                let begun = try shell(try #require(hooks[pre]))
                #expect(begun.succeeded && begun.stderr.isEmpty, "\(begun)")
                try awaitShown(label)
                let ended = try shell(try #require(hooks[post]))
                #expect(ended.succeeded && ended.stderr.isEmpty, "\(ended)")
                try awaitHidden()
            }

            // An update while packages are installed (two apt processes): each hook ends its own.
            _ = try shell(try #require(hooks["APT::Update::Pre-Invoke"]))
            try awaitShown("apt-update")
            _ = try shell(try #require(hooks["DPkg::Pre-Invoke"]))
            try Integration.awaitActiveCount(2, listener)
            _ = try shell(try #require(hooks["APT::Update::Post-Invoke"]))
            try Integration.awaitActiveCount(1, listener)
            #expect(try user.list().map(\.label) == ["dpkg"])
            _ = try shell(try #require(hooks["DPkg::Post-Invoke"]))
            try awaitHidden()

            let left = try shell("ls -A /run")
            #expect(left.succeeded && left.stdout.isEmpty, "the hooks leave no file behind: \(left)")
            _ = systemDaemon
        }

        /// APT stops when a hook fails: without the service, or without netactivity, each still exits 0.
        @Test func theAPTHookNeverFailsAPT() throws {
            let hooks = try aptHooks()
            let order = ["APT::Update::Pre-Invoke", "APT::Update::Post-Invoke", "DPkg::Pre-Invoke", "DPkg::Post-Invoke"]
            for path in ["\(Paths.products.path):/usr/bin:/bin", "/usr/bin:/bin"] {
                for key in order {
                    let result = try shell(try #require(hooks[key]), path: path)
                    #expect(result.succeeded, "\(key) with PATH=\(path): \(result)")
                }
            }
            let left = try shell("ls -A /run")
            #expect(left.stdout.isEmpty, "\(left)")
        }

        @Test func theSystemdDropInShowsAServicesRun() throws {
            let systemDaemon = try DaemonProcess(bus: system, systemBus: true)
            let dropIn = try readmeCodeBlock(after: Self.heading, skipping: 1, in: Self.page)
            let execLines = dropIn.split(separator: "\n").filter { $0.hasPrefix("Exec") }
            #expect(execLines.count == 2 && execLines.allSatisfy { $0.contains("=-") },
                    "a failing command must not fail the service: \(execLines)")

            let commands = try systemdCommands(of: dropIn, unit: "backup")
            let begun = try shell(try #require(commands["ExecStartPre"]))
            #expect(begun.succeeded, "\(begun)")
            try awaitShown("backup")
            let ended = try shell(try #require(commands["ExecStopPost"]))
            #expect(ended.succeeded && ended.stderr.isEmpty, "\(ended)")
            try awaitHidden()
            #expect(try shell("ls -A /run").stdout.isEmpty)
            _ = systemDaemon
        }

        /// The cron line's command runs as cron runs it, with a stand-in `rsync` that waits until told how to exit:
        /// the activity lasts while it runs, and its exit status passes through.
        @Test func theCronLineShowsItsCommandWhileItRuns() throws {
            let systemDaemon = try DaemonProcess(bus: system, systemBus: true)
            let block = try readmeCodeBlock(after: Self.heading, skipping: 2, in: Self.page)
            let line = try #require(block.split(separator: "\n").first { !$0.hasPrefix("#") })
            let fields = line.split(separator: " ", maxSplits: 6)
            try #require(fields.count == 7, "minute hour day month weekday user command: \(line)")
            #expect(fields[5] == "root")
            let command = String(fields[6])
            #expect(!command.contains("%"), "cron turns % into a new line")

            let standIns = try temporaryDirectory("stand-ins")
            defer { try? FileManager.default.removeItem(at: standIns) }
            let release = standIns.appendingPathComponent("release")
            #expect(mkfifo(release.path, 0o600) == 0)
            let rsync = standIns.appendingPathComponent("rsync")
            try "#!/bin/sh\necho rsync \"$@\"\nread status < \(release.path)\nexit $status\n"
                .write(to: rsync, atomically: true, encoding: .utf8)
            #expect(chmod(rsync.path, 0o755) == 0)

            let job = try BackgroundProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", command], bus: session,
                                            path: "\(standIns.path):\(Paths.products.path):/usr/bin:/bin",
                                            environment: ["DBUS_SYSTEM_BUS_ADDRESS": system.address])
            try job.awaitLine("rsync -a /home/ /srv/backup/")
            try awaitShown("backup")
            let releasing = try FileHandle(forWritingTo: release)
            try releasing.write(contentsOf: Data("3\n".utf8))
            try releasing.close()
            #expect(job.exitStatus() == 3)
            try awaitHidden()
            _ = systemDaemon
        }

        /// The page's APT configuration as APT reads it: each hook's one command, by its key. Only that file is
        /// read, not the machine's own configuration.
        func aptHooks() throws -> [String: String] {
            let folder = try temporaryDirectory("apt")
            defer { try? FileManager.default.removeItem(at: folder) }
            let noParts = folder.appendingPathComponent("apt.conf.d")
            try FileManager.default.createDirectory(at: noParts, withIntermediateDirectories: true)
            let base = folder.appendingPathComponent("base.conf")
            try "Dir::Etc::Parts \"\(noParts.path)\";\nDir::Etc::Main \"/dev/null\";\n"
                .write(to: base, atomically: true, encoding: .utf8)
            let hook = folder.appendingPathComponent("80netactivity")
            try readmeCodeBlock(after: Self.heading, in: Self.page).write(to: hook, atomically: true, encoding: .utf8)
            let dump = try runTool("apt-config", ["-c", hook.path, "dump", "--format", "%f\t%v%n"], bus: nil,
                                   environment: ["APT_CONFIG": base.path])
            #expect(dump.succeeded && dump.stderr.isEmpty, "\(dump)")
            var hooks: [String: String] = [:]
            for line in dump.stdout.split(separator: "\n") {
                let parts = line.split(separator: "\t", maxSplits: 1)
                guard parts.count == 2, parts[0].hasSuffix("-Invoke::") else { continue }
                let key = String(parts[0].dropLast(2))
                #expect(hooks[key] == nil, "one command per hook: \(key)")
                hooks[key] = String(parts[1])
            }
            #expect(hooks.count == 4, "\(dump.stdout)")
            return hooks
        }

        /// The drop-in's commands as systemd would run them for `unit`.service, specifiers filled in: systemd's own
        /// parser reads the unit and prints each command line (`systemd-analyze verify` at debug level). Each is
        /// `/bin/sh -c "…"`; the part in quotes is what the shell runs.
        func systemdCommands(of dropIn: String, unit: String) throws -> [String: String] {
            let folder = try temporaryDirectory("units")
            defer { try? FileManager.default.removeItem(at: folder) }
            let service = folder.appendingPathComponent("\(unit).service")
            try "[Unit]\nDescription=a test's\n[Service]\nType=oneshot\nExecStart=/bin/true\n"
                .write(to: service, atomically: true, encoding: .utf8)
            let dropIns = folder.appendingPathComponent("\(unit).service.d")
            try FileManager.default.createDirectory(at: dropIns, withIntermediateDirectories: true)
            try (dropIn + "\n").write(to: dropIns.appendingPathComponent("netactivity.conf"), atomically: true,
                                      encoding: .utf8)
            let verified = try runTool("systemd-analyze", ["verify", "--man=no", "--generators=no", service.path],
                                       bus: nil, environment: ["SYSTEMD_LOG_LEVEL": "debug"])
            let output = verified.stdout + verified.stderr
            #expect(verified.succeeded, "\(verified)")
            #expect(!output.contains("netactivity.conf:"), "systemd complains about the drop-in: \(output)")
            #expect(output.contains("DropIn Path: \(dropIns.path)/netactivity.conf"), "\(output)")

            var commands: [String: String] = [:]
            let lines = output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            for (index, line) in lines.enumerated() where line.hasPrefix("-> Exec") && index + 1 < lines.count {
                let key = String(line.dropFirst(3).dropLast())
                let prefix = "Command Line: /bin/sh -c \""
                guard lines[index + 1].hasPrefix(prefix), lines[index + 1].hasSuffix("\"") else { continue }
                let command = String(lines[index + 1].dropFirst(prefix.count).dropLast())
                #expect(!command.contains("\\") && !command.contains("\""), "quoted by systemd: \(command)")
                commands[key] = command
            }
            #expect(Set(commands.keys) == ["ExecStartPre", "ExecStopPost"], "\(output)")
            return commands
        }
    }
}

/// A mount namespace whose `/run` is an empty tmpfs of its own, kept alive by a process that sleeps in it, so
/// that commands which keep files in `/run` never touch the machine's.
final class PrivateRunFolder {
    private let holder: BackgroundProcess

    init(bus: PrivateBus) throws {
        holder = try BackgroundProcess(URL(fileURLWithPath: "/usr/bin/unshare"),
                                       ["--mount", "--propagation", "private", "/bin/sh", "-c",
                                        "mount -t tmpfs netactivity-test /run && echo ready && exec sleep 3600"],
                                       bus: bus)
        guard try holder.nextLine() == "ready" else { throw TestFailure("no /run of its own: \(holder.stderr)") }
    }

    /// The command line that runs a program in the namespace: a `wrapper` of `DaemonProcess`'s.
    var enter: [String] { ["/usr/bin/nsenter", "--target", "\(holder.process.processIdentifier)", "--mount", "--"] }

    /// `sh -c command` in the namespace, as root, with `PATH` and `bus` as the system bus.
    func shell(_ command: String, bus: PrivateBus, path: String) throws -> ToolResult {
        try runTool("/usr/bin/nsenter", ["--target", "\(holder.process.processIdentifier)", "--mount", "/bin/sh", "-c",
                                         command], bus: bus, environment: ["PATH": path])
    }
}
