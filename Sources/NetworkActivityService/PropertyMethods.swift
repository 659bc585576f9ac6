import DBusKit
import NetworkActivityInterface

/// `org.freedesktop.DBus.Properties` for the service's read-only properties `Visible` and `ActiveCount`.
extension NetworkActivityService {
    static let propertyNames: Set<String> = ["Visible", "ActiveCount"]

    static let propertyMethods: [Method] = [
        Method(name: "Get", signature: "ss") { service, call throws(DBusError) in
            var arguments = call.arguments()
            try DBusError.checkPropertyInterface(try arguments.read(String.self), is: ServiceNames.interface)
            let name = try arguments.read(String.self)
            guard let value = service.property(named: name) else { throw DBusError.unknownProperty(name, of: ServiceNames.interface) }
            return call.makeReturn(with: value)
        },
        Method(name: "GetAll", signature: "s") { service, call throws(DBusError) in
            var arguments = call.arguments()
            try DBusError.checkPropertyInterface(try arguments.read(String.self), is: ServiceNames.interface)
            return call.makeReturn(with: service.allProperties)
        },
        Method(name: "Set", signature: "ssv") { _, call throws(DBusError) in
            var arguments = call.arguments()
            try DBusError.checkPropertyInterface(try arguments.read(String.self), is: ServiceNames.interface)
            let name = try arguments.read(String.self)
            guard propertyNames.contains(name) else { throw DBusError.unknownProperty(name, of: ServiceNames.interface) }
            throw DBusError.propertyReadOnly(name)
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
