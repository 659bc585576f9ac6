import Foundation
import ServiceHarness

/// A server that moves bytes as fast as TCP lets it, on `VethLink`'s server side: a download gets zeros until it
/// hangs up, an upload's bytes are taken and counted. What a speed limit is measured against, since nothing but
/// the limit holds either back.
final class BulkServer {
    let port: Int
    let address: String
    private let process: Process

    /// A request is one byte, `D` or `U`, then for an upload the seconds to count as text and a newline; an
    /// upload's answer is the bytes that arrived within those seconds of its first, sent once it hangs up.
    private static let serverScript = #"""
        import socket, sys, threading, time
        server = socket.socket()
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        # A small receive buffer (the accepted sockets take it): an upload's bytes are counted from the first one
        # read, so a server thread that starts reading late on a busy machine found megabytes waiting, and counted
        # them in its window (1.22x a limit in CI). Now at most this much waits; the sender waits for the rest.
        server.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 65536)
        server.bind((sys.argv[1], 0))
        server.listen(16)
        print(server.getsockname()[1], flush=True)
        def serve(client):
            try:
                kind = client.recv(1)
                if kind == b"D":
                    chunk = b"\0" * 65536
                    while True:
                        client.sendall(chunk)
                elif kind == b"U":
                    header = b""
                    while not header.endswith(b"\n"):
                        header += client.recv(1)
                    seconds = float(header)
                    first, counted = None, 0
                    while True:
                        data = client.recv(1 << 20)
                        if not data:
                            break
                        now = time.monotonic()
                        first = first or now
                        if now - first < seconds:
                            counted += len(data)
                    client.sendall(b"%d\n" % counted)
            except OSError:
                pass
            finally:
                client.close()
        while True:
            client, _ = server.accept()
            threading.Thread(target=serve, args=(client,), daemon=True).start()
        """#

    /// Downloads or uploads for `seconds`; prints the bytes moved so far each second of a download, then the
    /// bytes moved in all: received, or as the server counted them.
    private static let clientScript = #"""
        import socket, sys, time
        way, host, port, seconds = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
        connection = socket.create_connection((host, port))
        connection.settimeout(0.2)
        if way == "down":
            connection.sendall(b"D")
            total, start, told = 0, time.monotonic(), 1
            while time.monotonic() - start < seconds:
                if time.monotonic() - start >= told:
                    print("so far %d" % total, flush=True)
                    told += 1
                try:
                    data = connection.recv(1 << 20)
                except socket.timeout:
                    continue
                if not data:
                    break
                total += len(data)
            print(total, flush=True)
        else:
            # A small send buffer: what waits in it after the last second is not counted, and drains soon.
            connection.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 65536)
            connection.sendall(b"U%f\n" % seconds)
            chunk, start = b"\0" * 65536, time.monotonic()
            while time.monotonic() - start < seconds:
                try:
                    connection.send(chunk)
                except socket.timeout:
                    pass
            connection.shutdown(socket.SHUT_WR)
            connection.settimeout(120)
            print(connection.recv(100).decode().strip(), flush=True)
        """#

    init(address: String, namespace: ([String]) -> [String]) throws {
        self.address = address
        let output = Pipe()
        let process = Process()
        self.process = process
        let command = namespace(["/usr/bin/python3", "-c", Self.serverScript, address])
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try withSignalsUnblocked { try process.runHandingOverFiles() }
        let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        guard let port = Int(line.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            process.terminate()
            throw TestFailure("the bulk server did not say its port: \(line)")
        }
        self.port = port
    }

    deinit {
        process.terminate()
        waitForExit(process)
    }

    /// The bytes a transfer moved in all, once it ends within `timeout`.
    static func total(of transfer: BackgroundProcess, within timeout: Duration) throws -> UInt64 {
        let deadline = ContinuousClock.now + timeout
        while let line = try transfer.nextLine(timeout: ContinuousClock.now.duration(to: deadline)) {
            if let total = UInt64(line) { return total }
        }
        throw TestFailure("the transfer ended without its total: \(transfer.lines), stderr: \(transfer.stderr)")
    }

    /// The bytes a download has received so far, from its next line, within `timeout`.
    static func soFar(of download: BackgroundProcess, within timeout: Duration = .seconds(5)) throws -> UInt64 {
        guard let line = try download.nextLine(timeout: timeout), line.hasPrefix("so far "),
              let count = UInt64(line.dropFirst("so far ".count)) else {
            throw TestFailure("the download said no count: \(download.lines)")
        }
        return count
    }

    enum Way: String {
        case down
        case up
    }

    /// Starts a transfer `way` for `seconds` in `cgroup`, as `user` when given, in a network namespace by
    /// `namespace`; its last line of output is the bytes moved (`total(of:)`).
    func transfer(_ way: Way, seconds: Int, in cgroup: ApplicationCgroup, as user: UInt32? = nil,
                  namespace: ([String]) -> [String], bus: PrivateBus) throws -> BackgroundProcess {
        let asUser = user.map { ["setpriv", "--reuid=\($0)", "--regid=\($0)", "--clear-groups"] } ?? []
        let move = #"echo $$ > "\#(cgroup.unit.path)/cgroup.procs" && "#
        let script = "'" + Self.clientScript.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
        let command = namespace(asUser + ["/usr/bin/python3", "-c", script, way.rawValue, address, "\(port)",
                                          "\(seconds)"]).joined(separator: " ")
        return try BackgroundProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", move + "exec " + command], bus: bus)
    }
}
