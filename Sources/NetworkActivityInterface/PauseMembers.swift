// SPDX-License-Identifier: Apache-2.0
public import DBusKit

/// Every member of `org.example.NetworkActivity.Pause`, declared once, as
/// `dbus/org.example.NetworkActivity.Pause.xml` defines it: holding back an app's network (an activity of the
/// `traffic` source), and letting it through again.
public enum PauseMembers {
    private static let interface = ServiceNames.pauseInterface

    public static let pause = Method("Pause", of: interface, Argument<UInt32>("id"))
    public static let resume = Method("Resume", of: interface, Argument<UInt32>("id"))

    public static let all: [any InterfaceMember] = [pause, resume]
}
