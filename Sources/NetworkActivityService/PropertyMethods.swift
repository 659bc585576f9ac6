import DBusKit
import NetworkActivityInterface

/// `org.freedesktop.DBus.Properties` for the service's read-only properties `Visible` and `ActiveCount`.
extension NetworkActivityService {
    static let propertyNames: Set<String> = ["Visible", "ActiveCount"]

    static let propertyMethods: [Method] = [
        Method(name: "Get", signature: "ss") { service, call throws(DBusError) in
            var arguments = call.arguments()
            try checkInterface(try arguments.read(String.self))
            let name = try arguments.read(String.self)
            guard let value = service.property(named: name) else { throw unknownProperty(name) }
            return call.makeReturn(with: value)
        },
        Method(name: "GetAll", signature: "s") { service, call throws(DBusError) in
            var arguments = call.arguments()
            try checkInterface(try arguments.read(String.self))
            return call.makeReturn(with: service.allProperties)
        },
        Method(name: "Set", signature: "ssv") { _, call throws(DBusError) in
            var arguments = call.arguments()
            try checkInterface(try arguments.read(String.self))
            let name = try arguments.read(String.self)
            guard propertyNames.contains(name) else { throw unknownProperty(name) }
            throw DBusError(.propertyReadOnly, "property \(name) is read-only")
        },
    ]

    func property(named name: String) -> Variant? {
        switch name {
        case "Visible": Variant(coordinator.isVisible)
        case "ActiveCount": Variant(coordinator.activeCount)
        default: nil
        }
    }

    var allProperties: [String: Variant] {
        ["Visible": Variant(coordinator.isVisible), "ActiveCount": Variant(coordinator.activeCount)]
    }
}

/// The empty interface name means "whichever has the property", which for this object is its only one.
private func checkInterface(_ interface: String) throws(DBusError) {
    guard interface.isEmpty || interface == ServiceNames.interface.rawValue else {
        throw DBusError(.unknownInterface, "the object has no properties on interface \"\(interface)\"")
    }
}

private func unknownProperty(_ name: String) -> DBusError {
    DBusError(.unknownProperty, "interface \(ServiceNames.interface) has no property \"\(name)\"")
}
