#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import DBusKit
import NetworkActivityInterface

/// Turns `ListActivities` records into statuses, asking the bus once per owner which process it is.
struct OwnerLookup {
    let connection: BlockingConnection
    private var processes: [String: UInt32?] = [:]

    init(connection: BlockingConnection) {
        self.connection = connection
    }

    mutating func describe(_ records: [ActivityRecord]) -> [ActivityStatus] {
        records.map { record in
            let processID = processID(of: record.owner)
            return ActivityStatus(
                id: record.id, label: record.label, owner: record.owner, ownerProcessID: processID,
                ownerCommand: processID.flatMap(commandName(ofProcess:)), startedAt: record.startedAt,
                deadline: record.deadline)
        }
    }

    private mutating func processID(of owner: String) -> UInt32? {
        if let known = processes[owner] { return known }
        let found = (try? BusName(owner)).flatMap { try? connection.processID(of: $0) }
        processes[owner] = found
        return found
    }
}

/// The kernel's name for a process's command (`/proc/PID/comm`), at most 15 bytes; nil when it is unreadable.
func commandName(ofProcess processID: UInt32) -> String? {
    let fd = open("/proc/\(processID)/comm", O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var buffer = [UInt8](repeating: 0, count: 64)
    let count = read(fd, &buffer, buffer.count)
    guard count > 0 else { return nil }
    let name = buffer[..<count].last == UInt8(ascii: "\n") ? buffer[..<(count - 1)] : buffer[..<count]
    return String(decoding: name, as: UTF8.self)
}
