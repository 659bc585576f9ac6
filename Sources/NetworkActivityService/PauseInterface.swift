// SPDX-License-Identifier: Apache-2.0
import DBusKit
import NetworkActivity
import NetworkActivityInterface

/// `org.example.NetworkActivity.Pause` as `dbus/org.example.NetworkActivity.Pause.xml` defines it, served by
/// DBusKit. `ServiceContractTests` compares this declaration with the XML.
extension PauseEndpoint {
    static let introspectionXML = String(decoding: PackageResources.org_example_NetworkActivity_Pause_xml,
                                         as: UTF8.self)

    static let interface = InterfaceDeclaration<PauseEndpoint>(
        ServiceNames.pauseInterface,
        methods: [
            MethodDeclaration(PauseMembers.pause) { endpoint, call, id throws(DBusError) in
                try endpoint.callers.refuseIfSandboxed(call.callerName, .pauseOrResume)
                try endpoint.setPaused(true, id: ActivityID(rawValue: id), caller: call.callerName)
                return NoValue()
            },
            MethodDeclaration(PauseMembers.resume) { endpoint, call, id throws(DBusError) in
                try endpoint.callers.refuseIfSandboxed(call.callerName, .pauseOrResume)
                try endpoint.setPaused(false, id: ActivityID(rawValue: id), caller: call.callerName)
                return NoValue()
            },
        ]
    )
}
