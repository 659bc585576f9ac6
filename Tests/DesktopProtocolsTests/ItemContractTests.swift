@testable import DesktopProtocols
import Foundation
import InterfaceContract
import Testing

/// The tray item's declared interface is the contract in `dbus/`: every method with its arguments' names, types and
/// directions, every property with its type and access, every signal.
@Suite("The tray item's interface against its XML")
struct ItemContractTests {
    static let file = InterfaceContract.dbusFolder.appendingPathComponent("org.kde.StatusNotifierItem.xml")

    @Test func theDeclarationIsTheXML() throws {
        let declared = InterfaceContract.lines(of: StatusNotifierItem.declaration)
        let contract = try InterfaceContract.lines(ofInterface: StatusNotifierItem.interface, in: Self.file)
        #expect(declared.subtracting(contract).sorted() == [], "declared, but not so in the XML")
        #expect(contract.subtracting(declared).sorted() == [], "in the XML, but not declared")
        #expect(declared.count == 25)
    }

    @Test func introspectReturnsTheFileItself() throws {
        #expect(StatusNotifierItem.introspectionXML == (try String(contentsOf: Self.file, encoding: .utf8)))
    }
}
