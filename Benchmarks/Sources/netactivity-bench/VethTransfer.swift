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
        rate = float(sys.argv[3])
        chunk = b"\\0" * (1 << 20 if rate == 0 else 1 << 14)
        start = time.monotonic()
        end, sent = start + float(sys.argv[2]), 0
        while time.monotonic() < end:
            client.sendall(chunk)
            sent += len(chunk)
            if rate: time.sleep(max(0, start + sent / rate - time.monotonic()))
        client.close()
        """
    private static let receiver = """
        import os, socket, sys
        if sys.argv[3]:
            with open(sys.argv[3] + "/cgroup.procs", "w") as procs: procs.write(str(os.getpid()))
        connection = socket.create_connection((sys.argv[1], int(sys.argv[2])))
        total = 0
        while True:
            data = connection.recv(1 << 20)
            if not data: break
            total += len(data)
        print(total)
        """

    /// Moves bytes from the server's side to the app's for `seconds`, at most `bytesPerSecond` when given (the
    /// sender paces itself), the receiver in the cgroup folder `receiverCgroup` when given (the sender stays in
    /// this process's, as a server on the network is in none of the app's); returns the bytes received.
    static func run(_ link: VethLink, seconds: Double, bytesPerSecond: Double? = nil,
                    receiverCgroup: String? = nil) throws -> UInt64 {
        let sending = try start(link.onServerSide(["/usr/bin/python3", "-c", sender, VethLink.serverAddress,
                                                   String(seconds), String(bytesPerSecond ?? 0)]))
        let port = String(decoding: sending.output.fileHandleForReading.availableData, as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        guard Int(port) != nil else { throw BenchFailure("the sender across the veth pair said no port: \(port)") }
        let receiving = try start(link.onAppSide(["/usr/bin/python3", "-c", receiver, VethLink.serverAddress, port,
                                                  receiverCgroup ?? ""]))
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
