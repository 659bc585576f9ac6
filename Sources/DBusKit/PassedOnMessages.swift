// SPDX-License-Identifier: Apache-2.0
internal import CDBus

/// Messages passed on whole from one bus to another, as a relay passes them: the body, its signature and the
/// error name kept byte for byte, only the addressing changed. The bus that delivers a copy names its sender.
extension Message {
    /// A copy of this call or signal for `destination` (nil: a signal for every listener whose rules match it),
    /// with no sender and no serial of its own yet.
    public func passedOn(to destination: BusName?) -> Message {
        let copy = self.copy()
        copy.address(to: destination?.rawValue)
        return copy
    }

    /// The reply to this call that carries `reply` (another call's reply, or its error) whole.
    public func replyPassingOn(_ reply: Message) -> Message {
        let copy = reply.copy()
        copy.address(to: sender)
        guard dbus_message_set_reply_serial(copy.raw, serial) != 0 else {
            fatalError("libdbus is out of memory setting a reply serial")
        }
        return copy
    }

    private func address(to destination: String?) {
        let addressed = destination.map { name in
            name.withCString { dbus_message_set_destination(raw, $0) }
        } ?? dbus_message_set_destination(raw, nil)
        guard addressed != 0, dbus_message_set_sender(raw, nil) != 0 else {
            fatalError("libdbus is out of memory addressing a message")
        }
    }
}
