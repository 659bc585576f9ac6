import Foundation
import ServiceHarness

/// A local HTTP server that sends each download at the pace its path asks, `/BYTES-PER-SECOND/SECONDS`, in a
/// twentieth of a second's bytes at a time, twenty times a second, its length said (`Content-Length`, so that
/// `curl` fails on a body cut short): a transfer whose rate and size the test knows, on loopback, or in a network
/// namespace of the test's own (`PrivateNetworkManager`'s internet, `VethLink`'s server side).
final class PacedServer {
    let port: Int
    let address: String
    private let process: Process

    private static let script = #"""
        import socket, sys, threading, time
        server = socket.socket()
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        server.bind((sys.argv[1], 0))
        server.listen(16)
        print(server.getsockname()[1], flush=True)
        def serve(client):
            try:
                request = client.recv(4096).decode()
                rate, seconds = (float(part) for part in request.split(" ")[1].strip("/").split("/"))
                chunk = b"\0" * int(rate / 20)
                chunks = round(seconds * 20)
                client.sendall(b"HTTP/1.0 200 OK\r\nContent-Type: application/octet-stream\r\n"
                               + b"Content-Length: %d\r\n\r\n" % (len(chunk) * chunks))
                start = time.monotonic()
                for sent in range(1, chunks + 1):
                    client.sendall(chunk)
                    time.sleep(max(0, start + sent / 20 - time.monotonic()))
            finally:
                client.close()
        while True:
            client, _ = server.accept()
            threading.Thread(target=serve, args=(client,), daemon=True).start()
        """#

    /// - Parameters:
    ///   - address: where it listens.
    ///   - namespace: a command line that runs it elsewhere (`PrivateNetworkManager.inInternet`).
    init(address: String = "127.0.0.1", namespace: ([String]) -> [String] = { $0 }) throws {
        self.address = address
        let output = Pipe()
        let process = Process()
        self.process = process
        let command = namespace(["/usr/bin/python3", "-c", Self.script, address])
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        // The test process blocks the termination signals that `deinit` sends.
        try withSignalsUnblocked { try process.runHandingOverFiles() }
        let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        guard let port = Int(line.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            process.terminate()
            throw TestFailure("the paced server did not say its port: \(line)")
        }
        self.port = port
    }

    deinit {
        process.terminate()
        waitForExit(process)
    }

    /// The bytes a download's body has: a twentieth of the rate, twenty times a second.
    static func body(bytesPerSecond: Int, seconds: Double) -> UInt64 {
        UInt64(bytesPerSecond / 20) * UInt64((seconds * 20).rounded())
    }

    /// Starts `curl` downloading `bytesPerSecond` for `seconds` into `output`: moved into `cgroup` first when
    /// given, into a network namespace by `namespace`, and run as `user` when given. Returns it running.
    func download(bytesPerSecond: Int, seconds: Double, in cgroup: ApplicationCgroup? = nil, as user: UInt32? = nil,
                  namespace: ([String]) -> [String] = { $0 }, output: String = "/dev/null",
                  bus: PrivateBus) throws -> BackgroundProcess {
        let url = "http://\(address):\(port)/\(bytesPerSecond)/\(seconds)"
        let asUser = user.map { ["setpriv", "--reuid=\($0)", "--regid=\($0)", "--clear-groups"] } ?? []
        let move = cgroup.map { #"echo $$ > "\#($0.unit.path)/cgroup.procs" && "# } ?? ""
        let command = namespace(asUser + ["curl", "-s", "-o", output, url]).joined(separator: " ")
        return try BackgroundProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", move + "exec " + command], bus: bus)
    }
}
