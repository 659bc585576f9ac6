// SPDX-License-Identifier: Apache-2.0
public import DBusKit

/// The service's properties, as one `GetAll` reads them.
public struct ServiceProperties: Equatable, Sendable {
    public var isVisible: Bool
    public var activeCount: UInt32
    /// Whether apps' measured traffic shows (`TrafficCounting`'s words); nil from a service without it.
    public var traffic: String?
    /// Why it does not, for people; nil from a service without it, empty while it counts.
    public var trafficReason: String?

    /// The properties from the values `GetAll` returned.
    public init(values: [String: ReceivedVariant]) throws(DBusError) {
        guard let visible = values[ServiceMembers.visible.name],
              let count = values[ServiceMembers.activeCount.name] else {
            throw DBusError(.invalidArgs, "the service's properties lack Visible or ActiveCount")
        }
        isVisible = try visible.decode(Bool.self)
        activeCount = try count.decode(UInt32.self)
        traffic = try values[ServiceMembers.traffic.name]?.decode(String.self)
        trafficReason = try values[ServiceMembers.trafficReason.name]?.decode(String.self)
    }
}
