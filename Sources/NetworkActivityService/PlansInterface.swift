// SPDX-License-Identifier: Apache-2.0
import DBusKit
import NetworkActivityInterface

/// `org.example.NetworkActivity.Plans` as `dbus/org.example.NetworkActivity.Plans.xml` defines it, served by
/// DBusKit. `ServiceContractTests` compares this declaration with the XML.
extension PlansEndpoint {
    static let introspectionXML = String(decoding: PackageResources.org_example_NetworkActivity_Plans_xml,
                                         as: UTF8.self)

    static let interface = InterfaceDeclaration<PlansEndpoint>(
        ServiceNames.plansInterface,
        methods: [
            MethodDeclaration(PlansMembers.setPlan, answeringLater: { endpoint, call, network, settings throws(DBusError) in
                try endpoint.setPlan(network, settings, call: call)
            }),
            MethodDeclaration(PlansMembers.removePlan, answeringLater: { endpoint, call, network throws(DBusError) in
                try endpoint.removePlan(network, call: call)
            }),
            MethodDeclaration(PlansMembers.resumePlan, answeringLater: { endpoint, call, network throws(DBusError) in
                try endpoint.resumePlan(network, call: call)
            }),
            MethodDeclaration(PlansMembers.getPlans) { endpoint, call throws(DBusError) in
                try endpoint.plans(for: call.callerName)
            },
        ],
        signals: [SignalDeclaration(PlansMembers.plansChanged)]
    )
}
