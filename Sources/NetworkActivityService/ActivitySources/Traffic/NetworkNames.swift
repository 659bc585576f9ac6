// SPDX-License-Identifier: Apache-2.0
import DBusKit
import NetworkActivity
import NetworkActivityInterface
import ProgramSupport
#if canImport(Glibc)
import Glibc
#endif

/// The networks that data usage is counted on, for people: by NetworkManager's connection where NetworkManager
/// runs (`Phone hotspot`, metered or not), else by the interface's name (`eth0`). Interfaces are known by index in
/// the service's own network namespace; every other namespace's (a container's) are one, `other-namespaces`, since
/// the service cannot look into them.
///
/// NetworkManager is followed as PackageKit is (`PackageKitSource`): its owner, its devices' `PropertiesChanged`,
/// `DeviceAdded` and `DeviceRemoved`; no call waits, and it is never started.
final class NetworkNames {
    /// The longest name a network is kept under, in bytes: Wi-Fi's names are at most 32, NetworkManager's
    /// connections have no bound of their own.
    static let maximumNameBytes = 64

    /// A network as usage rows name it.
    struct Network: Equatable {
        var name: String
        var metered: Bool
    }

    private struct Device {
        var index: Int32?
        var interface: String?
        var ipInterface: String?
        var meteredValue: UInt32 = 0
        var activeConnection = "/"
        var connectionID: String?
    }

    private let connection: Connection
    private let logger: Logger
    private let ownNamespace: UInt64?
    /// NetworkManager's unique name, "" while it is not running.
    private var owner = ""
    private var devices: [String: Device] = [:]

    init(connection: Connection, ownNamespace: UInt64?, logger: Logger) {
        self.connection = connection
        self.ownNamespace = ownNamespace
        self.logger = logger
        let manager = NetworkManagerInterface.manager
        do throws(DBusError) {
            try connection.followOwner(of: manager.busName) { [unowned self] newOwner in ownerChanged(to: newOwner) }
            var changes = StandardInterface.propertiesChanged.rule(sender: manager.busName)
            changes.arguments = [0: NetworkManagerInterface.deviceInterface.rawValue]
            try connection.subscribe(to: changes) { [unowned self] signal in deviceChanged(signal) }
            try connection.subscribe(to: NetworkManagerInterface.deviceAdded.rule(sender: manager.busName)) {
                [unowned self] signal in
                if let path = try? NetworkManagerInterface.deviceAdded.read(signal) { read(path.rawValue) }
            }
            try connection.subscribe(to: NetworkManagerInterface.deviceRemoved.rule(sender: manager.busName)) {
                [unowned self] signal in
                if let path = try? NetworkManagerInterface.deviceRemoved.read(signal) {
                    devices[path.rawValue] = nil
                    changed()
                }
            }
            ownerChanged(to: (try? connection.nameOwner(of: manager.busName)) ?? "")
        } catch {
            logger.info("naming networks by their interfaces alone: NetworkManager cannot be followed (\(error.message))")
        }
    }

    /// Told when a device's connection, interface or metered flag changed: the networks of interfaces may have.
    private var observers: [() -> Void] = []

    /// Has `observer` told of every change from now on, after those that came before it.
    func onChange(_ observer: @escaping () -> Void) {
        observers.append(observer)
    }

    private func changed() {
        for observer in observers { observer() }
    }

    /// The indexes of the interfaces of the service's namespace, with their networks now.
    func interfacesAndNetworks() -> [(index: UInt32, network: Network)] {
        guard let first = if_nameindex() else { return [] }
        defer { if_freenameindex(first) }
        var found: [(UInt32, Network)] = []
        var entry = first
        while entry.pointee.if_index != 0 {
            let index = entry.pointee.if_index
            found.append((index, network(interfaceIndex: index, namespace: ownNamespace ?? 0)))
            entry += 1
        }
        return found
    }

    /// The indexes of the interfaces of the service's namespace that the network `name` names now.
    func interfaces(of name: String) -> [UInt32] {
        interfacesAndNetworks().filter { $0.network.name == name }.map(\.index)
    }

    /// The network of an interface, by its index and its namespace's cookie (0: the kernel does not tell).
    func network(interfaceIndex: UInt32, namespace: UInt64) -> Network {
        // Every other namespace's (a container's, one a user made) is one network for each user's rows: a cookie
        // names nothing a person knows, and a user who makes namespaces by the thousand adds no row.
        guard namespace == 0 || namespace == ownNamespace else {
            return Network(name: DataUsage.otherNamespaces, metered: false)
        }
        let interface = Self.interfaceName(interfaceIndex)
        // NetworkManager tells a device's index since 1.48 (`Ifindex`); before, its interfaces' names.
        if let device = devices.values.first(where: { device in
            device.index.map { $0 == Int32(bitPattern: interfaceIndex) }
                ?? (interface != nil && (device.ipInterface == interface || device.interface == interface))
        }), let name = device.connectionID ?? device.interface {
            return Network(name: name, metered: NetworkManagerInterface.isMetered(device.meteredValue))
        }
        return Network(name: interface ?? "interface-\(interfaceIndex)", metered: false)
    }

    /// The name of an interface of the service's namespace (`SIOCGIFNAME`, which any socket may ask).
    static func interfaceName(_ index: UInt32) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(IF_NAMESIZE) + 1)
        return if_indextoname(index, &buffer).map { String(cString: $0) }
    }

    private func ownerChanged(to newOwner: String) {
        guard newOwner != owner else { return }
        owner = newOwner
        devices = [:]
        guard let destination = try? BusName(owner) else { return }
        logger.info("naming networks by NetworkManager's connections (\(owner))")
        let call = NetworkManagerInterface.getDevices.call(destination: destination,
                                                           path: NetworkManagerInterface.manager.path)
        call.autoStart = false
        let asked = owner
        connection.send(call, timeout: .seconds(10)) { [unowned self] result in
            guard asked == owner, case .success(var reply) = result,
                  let paths = try? NetworkManagerInterface.getDevices.readReply(&reply) else { return }
            for path in paths { read(path.rawValue) }
        }
    }

    /// Reads a device's properties, and then its active connection's name.
    private func read(_ path: String) {
        guard let destination = try? BusName(owner), let objectPath = try? ObjectPath(path) else { return }
        let call = StandardInterface.getAll.call(NetworkManagerInterface.deviceInterface.rawValue,
                                                 destination: destination, path: objectPath)
        call.autoStart = false
        let asked = owner
        connection.send(call, timeout: .seconds(10)) { [unowned self] result in
            guard asked == owner, case .success(var reply) = result,
                  let values = try? StandardInterface.getAll.readReply(&reply) else { return }
            var device = devices[path] ?? Device()
            apply(values, to: &device, of: path)
        }
    }

    private func deviceChanged(_ signal: Message) {
        guard let path = signal.path, signal.sender == owner, !owner.isEmpty,
              let (_, values, _) = try? StandardInterface.readPropertiesChanged(signal) else { return }
        guard var device = devices[path] else {
            read(path)
            return
        }
        apply(values, to: &device, of: path)
    }

    private func apply(_ values: [String: ReceivedVariant], to device: inout Device, of path: String) {
        typealias Names = NetworkManagerInterface.Property
        if let index = try? values[Names.interfaceIndex]?.decode(Int32.self) { device.index = index }
        if let interface = try? values[Names.interface]?.decode(String.self) {
            device.interface = ActivityLabel.sanitized(interface, atMost: Self.maximumNameBytes)
        }
        if let interface = try? values[Names.ipInterface]?.decode(String.self) {
            device.ipInterface = ActivityLabel.sanitized(interface, atMost: Self.maximumNameBytes)
        }
        if let metered = try? values[Names.metered]?.decode(UInt32.self) { device.meteredValue = metered }
        let connectionChanged: Bool
        if let active = try? values[Names.activeConnection]?.decode(ObjectPath.self) {
            connectionChanged = active.rawValue != device.activeConnection
            device.activeConnection = active.rawValue
            if connectionChanged { device.connectionID = nil }
        } else {
            connectionChanged = false
        }
        devices[path] = device
        if connectionChanged { readConnectionID(of: path, at: device.activeConnection) }
        changed()
    }

    private func readConnectionID(of devicePath: String, at activePath: String) {
        guard activePath != "/", let destination = try? BusName(owner), let objectPath = try? ObjectPath(activePath)
        else { return }
        let call = StandardInterface.get.call(NetworkManagerInterface.activeConnectionInterface.rawValue,
                                              NetworkManagerInterface.Property.id,
                                              destination: destination, path: objectPath)
        call.autoStart = false
        connection.send(call, timeout: .seconds(10)) { [unowned self] result in
            guard case .success(var reply) = result, devices[devicePath]?.activeConnection == activePath,
                  let id = try? StandardInterface.get.readReply(&reply).decode(String.self) else { return }
            devices[devicePath]?.connectionID = ActivityLabel.sanitized(id, atMost: Self.maximumNameBytes)
            changed()
        }
    }
}
