import DBusKit
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// An interface as a set of lines, one per member, so that a declaration and an XML file compare line by line
/// and a difference names the member: `method Begin(in s label, out u id)`, `property Visible b read`,
/// `signal VisibilityChanged(b visible)`.
public enum InterfaceContract {
    /// What `declaration` serves. Every property `ServedObject` serves is read-only.
    public static func lines<Object>(of declaration: InterfaceDeclaration<Object>) -> Set<String> {
        var lines = Set<String>()
        for method in declaration.methods {
            let arguments = method.inputs.map { "in \($0.signature) \($0.name)" }
                + method.outputs.map { "out \($0.signature) \($0.name)" }
            lines.insert("method \(method.name)(\(arguments.joined(separator: ", ")))")
        }
        for property in declaration.properties {
            lines.insert("property \(property.name) \(property.signature) read")
        }
        for signal in declaration.signals {
            let arguments = signal.arguments.map { "\($0.signature) \($0.name)" }
            lines.insert("signal \(signal.name)(\(arguments.joined(separator: ", ")))")
        }
        return lines
    }

    /// What the interface `name` of an introspection XML file says; throws when the file has no such interface.
    public static func lines(ofInterface name: InterfaceName, in file: URL) throws -> Set<String> {
        let reader = IntrospectionReader(interface: name.rawValue)
        let parser = XMLParser(data: try Data(contentsOf: file))
        parser.delegate = reader
        guard parser.parse() else { throw ContractError("\(file.lastPathComponent) is not well-formed XML") }
        guard reader.found else { throw ContractError("\(file.lastPathComponent) has no interface \(name)") }
        return reader.lines
    }

    /// How `declaration` and its interface in the XML file `named` in `dbus/` differ.
    public static func compare<Object>(
        _ declaration: InterfaceDeclaration<Object>, withFile named: String
    ) throws -> Comparison {
        let declared = lines(of: declaration)
        let contract = try lines(ofInterface: declaration.name, in: dbusFolder.appendingPathComponent(named))
        return Comparison(declaredOnly: declared.subtracting(contract).sorted(),
                          contractOnly: contract.subtracting(declared).sorted(), declaredMembers: declared.count)
    }

    /// What `object` answers to `Introspect`, served in memory.
    public static func introspect(_ object: ServedObject, on bus: InMemoryBus) throws -> String {
        var reply = try bus.reply(object, StandardInterface.introspectable, StandardInterface.introspect.name)
            .arguments()
        return try reply.read(String.self)
    }

    /// The lines that only one side has, and how many members the declaration has.
    public struct Comparison {
        public let declaredOnly: [String]
        public let contractOnly: [String]
        public let declaredMembers: Int
    }

    /// The repository's `dbus/` folder, found from this file's place in it.
    public static let dbusFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("dbus")
}

public struct ContractError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

/// Reads one interface's members out of introspection XML.
private final class IntrospectionReader: NSObject, XMLParserDelegate {
    let interface: String
    var found = false
    var lines = Set<String>()
    private var inInterface = false
    private var member: (kind: String, name: String, arguments: [String])?

    init(interface: String) { self.interface = interface }

    func parser(_ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        switch element {
        case "interface":
            inInterface = attributes["name"] == interface
            found = found || inInterface
        case "method" where inInterface, "signal" where inInterface:
            member = (element, attributes["name"] ?? "", [])
        case "arg" where inInterface:
            let type = attributes["type"] ?? "", name = attributes["name"] ?? ""
            if member?.kind == "method" {
                member?.arguments.append("\(attributes["direction"] ?? "in") \(type) \(name)")
            } else {
                member?.arguments.append("\(type) \(name)")
            }
        case "property" where inInterface:
            let name = attributes["name"] ?? "", type = attributes["type"] ?? ""
            lines.insert("property \(name) \(type) \(attributes["access"] ?? "")")
        default:
            break
        }
    }

    func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
        switch element {
        case "interface":
            inInterface = false
        case "method", "signal":
            if inInterface, let member {
                lines.insert("\(member.kind) \(member.name)(\(member.arguments.joined(separator: ", ")))")
            }
            member = nil
        default:
            break
        }
    }
}
