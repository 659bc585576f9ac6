// SPDX-License-Identifier: Apache-2.0
import DBusKit
import NetworkActivityInterface

/// Why the service could not start or had to stop.
public enum ServiceError: Error, CustomStringConvertible {
    case bus(DBusError)
    case nameTaken(owner: String, processID: UInt32?)
    case system(String)

    public var description: String {
        switch self {
        case .bus(let error): "D-Bus: \(error)"
        case .nameTaken(let owner, let processID):
            "\(ServiceNames.busName) is already owned by \(owner)"
                + (processID.map { " (pid \($0))" } ?? "")
                + "; stop it, or start with --replace if it allows replacement"
        case .system(let message): message
        }
    }
}
