// SPDX-License-Identifier: Apache-2.0
public import DBusKit

/// PackageKit's daemon on the system bus, `org.freedesktop.PackageKit`, and its transactions: the members the
/// service follows to show PackageKit's downloads as activities, declared once.
public enum PackageKitInterface {
    public static let daemon = RemoteObject(
        "org.freedesktop.PackageKit", at: "/org/freedesktop/PackageKit", "org.freedesktop.PackageKit")
    public static let transactionInterface: InterfaceName = "org.freedesktop.PackageKit.Transaction"

    /// The transactions running now.
    public static let getTransactionList = Method(
        "GetTransactionList", of: daemon.interface, output: Argument<[ObjectPath]>("transactions"))
    public static let transactionListChanged = Signal(
        "TransactionListChanged", of: daemon.interface, Argument<[String]>("transactions"))
    /// A transaction ended, with its exit (`PkExitEnum`) and how long it ran in milliseconds.
    public static let finished = Signal(
        "Finished", of: transactionInterface, Argument<UInt32>("exit"), Argument<UInt32>("runtime"))
    /// A transaction's object goes away.
    public static let destroy = Signal("Destroy", of: transactionInterface)
}
