import DBusKit
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

/// The data usage's, pausing's and limits' interfaces are their XML too, as the system service serves them and as a
/// session passes them on (`SystemServiceRelay`, built from the members alone), each at its own object.
@Suite("The usage, pause, limits and plans interfaces against their XML")
struct RelayedInterfaceContractTests {
    static let usageFile = "org.example.NetworkActivity.Usage.xml"
    static let pauseFile = "org.example.NetworkActivity.Pause.xml"
    static let limitsFile = "org.example.NetworkActivity.Limits.xml"
    static let plansFile = "org.example.NetworkActivity.Plans.xml"

    @Test func theSystemServicesDeclarationsAreTheXML() throws {
        let usage = try InterfaceContract.compare(UsageEndpoint.interface, withFile: Self.usageFile)
        #expect(usage.declaredOnly == [] && usage.contractOnly == [], "\(usage)")
        #expect(usage.declaredMembers == UsageMembers.all.count)
        let pause = try InterfaceContract.compare(PauseEndpoint.interface, withFile: Self.pauseFile)
        #expect(pause.declaredOnly == [] && pause.contractOnly == [], "\(pause)")
        #expect(pause.declaredMembers == PauseMembers.all.count)
        let limits = try InterfaceContract.compare(LimitsEndpoint.interface, withFile: Self.limitsFile)
        #expect(limits.declaredOnly == [] && limits.contractOnly == [], "\(limits)")
        #expect(limits.declaredMembers == LimitsMembers.all.count)
        let plans = try InterfaceContract.compare(PlansEndpoint.interface, withFile: Self.plansFile)
        #expect(plans.declaredOnly == [] && plans.contractOnly == [], "\(plans)")
        #expect(plans.declaredMembers == PlansMembers.all.count)
    }

    @Test func theSessionsRelayServesTheSameInterfacesAtTheSameObjects() throws {
        let bus = InMemoryBus()
        let callers = CallerDirectory(lookUpCredentials: { _ in nil }, lookUpApplication: { _ in nil })
        let relay = SystemServiceRelay(callers: callers, send: bus.send) {
            DBusError(.notCountingTraffic, "no system service in this test")
        }
        #expect(relay.objects.map(\.path) == [ServiceNames.usagePath, ServiceNames.pausePath, ServiceNames.limitsPath,
                                                   ServiceNames.plansPath])
        for (object, file) in zip(relay.objects, [Self.usageFile, Self.pauseFile, Self.limitsFile, Self.plansFile]) {
            let xml = try String(contentsOf: InterfaceContract.dbusFolder.appendingPathComponent(file), encoding: .utf8)
            #expect(try InterfaceContract.introspect(object, on: bus) == xml)
        }
        let usage = try InterfaceContract.compare(
            InterfaceDeclaration<SystemServiceRelay>(ServiceNames.usageInterface, passingOn: UsageMembers.all) { _, _ in },
            withFile: Self.usageFile)
        #expect(usage.declaredOnly == [] && usage.contractOnly == [], "\(usage)")
        // With no system service to pass it to, a call says why; a call of the wrong signature never leaves.
        let reply = try bus.reply(relay.objects[1], ServiceNames.pauseInterface, PauseMembers.pause.name) {
            $0.append(UInt32(7))
        }
        #expect(reply.errorName == ErrorName.notCountingTraffic.rawValue)
        #expect(try bus.errorName(relay.objects[1], ServiceNames.pauseInterface, PauseMembers.pause.name) {
            $0.append("seven")
        } == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(try bus.errorName(relay.objects[2], ServiceNames.limitsInterface, LimitsMembers.setLimit.name) {
            $0.append("firefox-esr")
        } == "org.freedesktop.DBus.Error.InvalidArgs")
    }
}
