import Foundation
import InterfaceContract
import NetworkActivityInterface
@testable import NetworkActivityService
import Testing

/// The service's declared interface is the contract in `dbus/`: every method with its arguments' names, types and
/// directions, every property with its type and access, every signal.
@Suite("The service's interface against its XML")
struct ServiceContractTests {
    static let file = InterfaceContract.dbusFolder.appendingPathComponent("org.example.NetworkActivity.xml")

    @Test func theDeclarationIsTheXML() throws {
        let declared = InterfaceContract.lines(of: NetworkActivityService.interface)
        let contract = try InterfaceContract.lines(ofInterface: ServiceNames.interface, in: Self.file)
        #expect(declared.subtracting(contract).sorted() == [], "declared, but not so in the XML")
        #expect(contract.subtracting(declared).sorted() == [], "in the XML, but not declared")
        #expect(declared.count == 9)
    }

    @Test func introspectReturnsTheFileItself() throws {
        #expect(NetworkActivityService.introspectionXML == (try String(contentsOf: Self.file, encoding: .utf8)))
    }
}
