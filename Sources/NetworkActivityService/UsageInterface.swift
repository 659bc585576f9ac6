// SPDX-License-Identifier: Apache-2.0
import DBusKit
import NetworkActivityInterface

/// `org.example.NetworkActivity.Usage` as `dbus/org.example.NetworkActivity.Usage.xml` defines it, served by
/// DBusKit. `ServiceContractTests` compares this declaration with the XML.
extension UsageEndpoint {
    static let introspectionXML = String(decoding: PackageResources.org_example_NetworkActivity_Usage_xml,
                                         as: UTF8.self)

    static let interface = InterfaceDeclaration<UsageEndpoint>(
        ServiceNames.usageInterface,
        methods: [
            MethodDeclaration(UsageMembers.getUsage) { endpoint, call, since, daily throws(DBusError) in
                try endpoint.callers.refuseIfSandboxed(call.callerName, .readUsage)
                return try endpoint.usage(for: call.callerName, since: since, daily: daily)
            },
            MethodDeclaration(UsageMembers.clearUsage) { endpoint, call throws(DBusError) in
                try endpoint.callers.refuseIfSandboxed(call.callerName, .clearUsage)
                return try endpoint.clearUsage(for: call.callerName)
            },
        ],
        signals: [SignalDeclaration(UsageMembers.usageChanged)]
    )
}
