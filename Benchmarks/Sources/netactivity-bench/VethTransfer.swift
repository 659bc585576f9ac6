// SPDX-License-Identifier: Apache-2.0
import Foundation
import ServiceHarness

/// A TCP transfer at full speed across a veth pair between two network namespaces of the benchmark's own
/// (`VethLink`): what a download from the network meets in the counting programs, the pause's lookup among it (a
/// loopback packet skips that). Python at each end, sending and reading as fast as the kernel moves it.
enum VethTransfer {
    private static let sender = """
        import socket, sys, time
        server = socket.socket(); server.bind((sys.argv[1], 0)); server.listen(1)
        print(server.getsockname()[1], flush=True)
        client, _ = server.accept()
        chunk = b"\\0" * (1 << 20)
        end = time.monotonic() + float(sys.argv[2])
        while time.monotonic() < end: client.sendall(chunk)
        client.close()
        """
    private static let receiver = """
        import socket, sys
        connection = socket.create_connection((sys.argv[1], int(sys.argv[2])))
        total = 0
        while True:
            data = connection.recv(1 << 20)
            if not data: break
            total += len(data)
        print(total)
        """

    /// Moves bytes from the server's side to the app's for `seconds`; returns the bytes received.
    static func run(_ link: VethLink, seconds: Double) throws -> UInt64 {
        let sending = try start(link.onServerSide(["/usr/bin/python3", "-c", sender, VethLink.serverAddress,
                                                   String(seconds)]))
        let port = String(decoding: sending.output.fileHandleForReading.availableData, as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        guard Int(port) != nil else { throw BenchFailure("the sender across the veth pair said no port: \(port)") }
        let receiving = try start(link.onAppSide(["/usr/bin/python3", "-c", receiver, VethLink.serverAddress, port]))
        let received = receiving.output.fileHandleForReading.readDataToEndOfFile()
        waitForExit(receiving.process)
        waitForExit(sending.process)
        guard let bytes = UInt64(String(decoding: received, as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)) else { throw BenchFailure("the receiver said nothing") }
        return bytes
    }

    private static func start(_ command: [String]) throws -> (process: Process, output: Pipe) {
        let process = Process()
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        return (process, output)
    }
}
