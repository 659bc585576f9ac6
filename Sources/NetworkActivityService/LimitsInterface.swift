// SPDX-License-Identifier: Apache-2.0
import DBusKit
import NetworkActivityInterface

/// `org.example.NetworkActivity.Limits` as `dbus/org.example.NetworkActivity.Limits.xml` defines it, served by
/// DBusKit. `ServiceContractTests` compares this declaration with the XML.
extension LimitsEndpoint {
    static let introspectionXML = String(decoding: PackageResources.org_example_NetworkActivity_Limits_xml,
                                         as: UTF8.self)

    static let interface = InterfaceDeclaration<LimitsEndpoint>(
        ServiceNames.limitsInterface,
        methods: [
            MethodDeclaration(LimitsMembers.setLimit) { endpoint, call, application, change throws(DBusError) in
                try endpoint.setLimit(application, change, caller: call.callerName)
                return NoValue()
            },
            MethodDeclaration(LimitsMembers.removeLimit) { endpoint, call, application throws(DBusError) in
                try endpoint.removeLimit(application, caller: call.callerName)
                return NoValue()
            },
            MethodDeclaration(LimitsMembers.getLimits) { endpoint, call throws(DBusError) in
                try endpoint.limits(for: call.callerName)
            },
            MethodDeclaration(LimitsMembers.setSaver) { endpoint, call, on throws(DBusError) in
                try endpoint.setSaver(on, caller: call.callerName)
                return NoValue()
            },
            MethodDeclaration(LimitsMembers.getSaver) { endpoint, call throws(DBusError) in
                try endpoint.saverIsOn(for: call.callerName)
            },
        ]
    )
}
