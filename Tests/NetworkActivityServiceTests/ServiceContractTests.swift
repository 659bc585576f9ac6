import Foundation
import TestSupport
import NetworkActivityInterface
@testable import NetworkActivityService
import Testing

/// The service's declared interface is the contract in `dbus/`: every method with its arguments' names, types and
/// directions, every property with its type and access, every signal.
@Suite("The service's interface against its XML")
struct ServiceContractTests {
    static let file = "org.example.NetworkActivity.xml"

    @Test func theDeclarationIsTheXML() throws {
        let comparison = try InterfaceContract.compare(ActivityEndpoint.interface, withFile: Self.file)
        #expect(comparison.declaredOnly == [], "declared, but not so in the XML")
        #expect(comparison.contractOnly == [], "in the XML, but not declared")
        #expect(comparison.declaredMembers == ServiceMembers.all.count)
        #expect(Set(ServiceMembers.all.map(\.memberName)).count == ServiceMembers.all.count)
    }

    @Test func introspectAnswersTheFileItself() throws {
        let scene = ActivityEndpointTests.Scene()
        let file = InterfaceContract.dbusFolder.appendingPathComponent(Self.file)
        #expect(try InterfaceContract.introspect(scene.endpoint.object, on: scene.bus)
            == String(contentsOf: file, encoding: .utf8))
    }
}
