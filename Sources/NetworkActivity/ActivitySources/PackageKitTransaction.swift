// SPDX-License-Identifier: Apache-2.0
/// A PackageKit transaction as its properties say (`org.freedesktop.PackageKit.Transaction`), and the rules that
/// make it an activity: while its status is one of PackageKit's network statuses. Numbers are those of
/// `PkRoleEnum` and `PkStatusEnum` in PackageKit's `pk-enum.h`, which only ever appends to them.
public struct PackageKitTransaction: Sendable, Equatable {
    public var role: UInt32 = 0
    public var status: UInt32 = 0
    /// The package id last worked on, `name;version;arch;data`.
    public var lastPackage = ""
    /// The Unix user who started it.
    public var user: UInt32?
    /// The bus name of the program that started it.
    public var sender = ""
    /// 0 to 100, or 101 when unknown.
    public var percentage: UInt32 = 101
    /// Bits per second; 0 when unknown.
    public var speed: UInt32 = 0

    public init() {}

    /// `refresh-cache`, `download`, and the `download-*` statuses (repository, package list, file list,
    /// changelog, group, update info). Installing, resolving or waiting for a lock is no network work.
    public static let networkStatuses: Set<UInt32> = [7, 8, 20, 21, 22, 23, 24, 25]

    public var isNetworkWork: Bool { Self.networkStatuses.contains(status) }

    /// Takes one property as PackageKit names it; returns false for a name it does not know, or a value of a
    /// type the interface does not give that name, which changes nothing.
    public mutating func set(_ name: String, to value: PropertyValue) -> Bool {
        switch (name, value) {
        case ("Role", .unsigned(let role)): self.role = role
        case ("Status", .unsigned(let status)): self.status = status
        case ("LastPackage", .text(let package)): lastPackage = package
        case ("Uid", .unsigned(let user)): self.user = user
        case ("Sender", .text(let sender)): self.sender = sender
        case ("Percentage", .unsigned(let percentage)): self.percentage = percentage
        case ("Speed", .unsigned(let speed)): self.speed = speed
        default: return false
        }
        return true
    }

    /// The names of the properties it follows, as `set` takes them.
    public static let propertyNames: Set<String> = [
        "Role", "Status", "LastPackage", "Uid", "Sender", "Percentage", "Speed",
    ]

    /// A property's value, of the types the interface gives the ones followed.
    public enum PropertyValue: Sendable, Equatable {
        case unsigned(UInt32)
        case text(String)
    }

    /// What it does, for people: the role and the package, "Downloading firefox-esr".
    public var label: String {
        let package = lastPackage.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first
            .map(String.init) ?? ""
        func withPackage(_ verb: String, _ plural: String) -> String {
            package.isEmpty ? "\(verb) \(plural)" : "\(verb) \(package)"
        }
        switch role {
        case 13: return "Refreshing the package lists"
        case 25: return withPackage("Downloading", "packages")
        case 11, 10: return withPackage("Installing", "packages")
        case 22: return withPackage("Updating", "packages")
        case 33: return "Upgrading the system"
        case 26: return "Looking for system upgrades"
        case 9: return "Looking for updates"
        default: return status == 7 || (20...25).contains(status)
            ? "Refreshing the package lists" : withPackage("Downloading", "packages")
        }
    }

    /// `Percentage` when known.
    public var percent: UInt32? { percentage <= 100 ? percentage : nil }
    /// `Speed` in bytes per second, when known.
    public var rate: UInt64? { speed > 0 ? UInt64(speed) / 8 : nil }
}
