import DBusKit
import Foundation
import NetworkActivityInterface
import ServiceHarness

/// What a command-line client printed and how it exited.
struct ToolResult: CustomStringConvertible {
    let status: Int32
    let stdout: String
    let stderr: String
    var succeeded: Bool { status == 0 }
    var description: String { "exit \(status)\nstdout: \(stdout)\nstderr: \(stderr)" }
}

/// Runs a real client (`dbus-send`, `gdbus`, `busctl`, …) against the private bus only: its environment names
/// that bus as the session and the system bus, and nothing else (no bus at all when `bus` is nil) but `environment`.
func runTool(_ tool: String, _ arguments: [String], bus: PrivateBus?, environment: [String: String] = [:],
             timeout: Duration = .seconds(20)) throws -> ToolResult
{
    try StartedTool(tool, arguments, bus: bus, environment: environment).result(within: timeout)
}

/// A tool started as `runTool` starts it, whose result is awaited later: tools that run at the same time.
final class StartedTool {
    private let tool: String
    private let arguments: [String]
    private let process = Process()
    private let directory: URL
    private let stdout: URL
    private let stderr: URL

    init(_ tool: String, _ arguments: [String], bus: PrivateBus?, environment: [String: String] = [:]) throws {
        self.tool = tool
        self.arguments = arguments
        directory = try temporaryDirectory("tool")
        stdout = try touch(directory.appendingPathComponent("out"))
        stderr = try touch(directory.appendingPathComponent("err"))
        process.executableURL = URL(fileURLWithPath: tool.hasPrefix("/") ? tool : "/usr/bin/\(tool)")
        process.arguments = arguments
        process.environment = ["PATH": "/usr/bin:/bin"].merging(SanitizerOptions.environment) { $1 }
        if let bus {
            process.environment?["DBUS_SESSION_BUS_ADDRESS"] = bus.address
            process.environment?["DBUS_SYSTEM_BUS_ADDRESS"] = bus.address
        }
        process.environment?.merge(environment) { $1 }
        process.standardOutput = try FileHandle(forWritingTo: stdout)
        process.standardError = try FileHandle(forWritingTo: stderr)
        process.standardInput = FileHandle.nullDevice
        try withSignalsUnblocked { try process.runHandingOverFiles() }
    }

    deinit {
        if process.isRunning { process.terminate() }
        try? FileManager.default.removeItem(at: directory)
    }

    /// Waits for the tool to exit, for `timeout` from now at most.
    func result(within timeout: Duration) throws -> ToolResult {
        guard waitForExit(process, timeout: timeout) else {
            process.terminate()
            throw TestFailure("\(tool) \(arguments) did not finish within \(timeout)")
        }
        return ToolResult(status: process.terminationStatus,
                          stdout: try String(contentsOf: stdout, encoding: .utf8),
                          stderr: try String(contentsOf: stderr, encoding: .utf8))
    }
}

/// `dbus-send --print-reply` to the service's object; `call` is `Interface.Member` or a bare member of the
/// service's interface.
func dbusSend(_ bus: PrivateBus, _ call: String, _ arguments: String...) throws -> ToolResult {
    try dbusSend(bus, call, arguments: arguments)
}

/// `dbus-send --print-reply` of a member of the service's interface, as `ServiceMembers` declares it.
func dbusSend(_ bus: PrivateBus, _ member: MemberName, _ arguments: String...) throws -> ToolResult {
    try dbusSend(bus, "\(ServiceNames.interface).\(member)", arguments: arguments)
}

func dbusSend(_ bus: PrivateBus, _ member: MemberName, arguments: [String]) throws -> ToolResult {
    try dbusSend(bus, "\(ServiceNames.interface).\(member)", arguments: arguments)
}

func dbusSend(_ bus: PrivateBus, _ call: String, arguments: [String]) throws -> ToolResult {
    let member = call.contains(".") ? call : "org.example.NetworkActivity.\(call)"
    return try runTool("dbus-send", ["--session", "--print-reply", "--dest=org.example.NetworkActivity",
                                     objectPath(of: member), member] + arguments, bus: bus)
}

/// The object of `Interface.Member`'s interface: each of the service's interfaces has its own.
func objectPath(of member: String) -> String {
    let interface = member.split(separator: ".").dropLast().joined(separator: ".")
    return (try? InterfaceName(interface)).map { ServiceNames.objectPath(serving: $0).rawValue }
        ?? ServiceNames.objectPath.rawValue
}

/// `gdbus call` on the service's object, of a member of its interface.
func gdbusCall(_ bus: PrivateBus, _ member: MemberName, _ arguments: String...) throws -> ToolResult {
    try gdbusCall(bus, "\(ServiceNames.interface).\(member)", arguments: arguments)
}

/// `gdbus call` on the service's object of `Interface.Member`, which may be wrong on purpose.
func gdbusCall(_ bus: PrivateBus, _ member: String, _ arguments: String...) throws -> ToolResult {
    try gdbusCall(bus, member, arguments: arguments)
}

func gdbusCall(_ bus: PrivateBus, _ member: String, arguments: [String]) throws -> ToolResult {
    try runTool("gdbus", ["call", "--session", "--dest", "org.example.NetworkActivity",
                          "--object-path", objectPath(of: member), "--method", member] + arguments, bus: bus)
}

/// `busctl` against the private bus.
func busctl(_ bus: PrivateBus, _ arguments: String...) throws -> ToolResult {
    try runTool("busctl", ["--address=\(bus.address)"] + arguments, bus: bus)
}

/// The number after `uint32` in dbus-send's reply.
func replyNumber(_ result: ToolResult) -> UInt32? {
    guard let range = result.stdout.range(of: "uint32 ") else { return nil }
    return UInt32(result.stdout[range.upperBound...].prefix { $0.isNumber })
}
